package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Limits changed while running, seen from two instances of the application on one Redis. Instance A is the
 * packaged application Quarkus starts for the tests across instances; instance B is a second process this test
 * starts from the same packaged jar, on a port of its own, with the same Redis URI: two JVMs, each with its own
 * limiter, deny cache and poll of the shared settings, as two servers behind a load balancer. Changes are made on
 * one instance and awaited on the other with a deadline only a real fault reaches (the product applies them within
 * a second).
 */
@QuarkusIntegrationTest
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class AdminAcrossInstancesIT {

    @RegisterExtension
    static final SecondInstance.PerClass instanceB = new SecondInstance.PerClass("instance-b", "/quarkus/admin/limits");

    private static RequestSpecification a() {
        return RestAssured.given();
    }

    private static RequestSpecification b() {
        return instanceB.given();
    }

    private static int call(RequestSpecification instance, String key) {
        return instance.header("X-API-Key", key).get("/quarkus/admin/limited").statusCode();
    }

    @Test
    void changesMadeOnOneInstanceAreAppliedByTheOther() {
        // an override made on A is enforced by B
        a().put("/quarkus/admin/limits?limit=2").then().statusCode(200);
        await("B applies the override", () -> b().get("/quarkus/admin/limits").asString().equals("2/3600000 overridden=true"));
        assertEquals(List.of(200, 200, 429), List.of(call(b(), "o1"), call(b(), "o1"), call(b(), "o1")));
        assertEquals(429, call(b(), "o1"), "B now answers from its deny cache");

        // a raise made on A while B holds that denial: B allows the next call soon after
        a().put("/quarkus/admin/limits?limit=10").then().statusCode(200);
        await("B forgets the denial and allows", () -> call(b(), "o1") == 200);

        // usage and reset, each asked of the other instance than the one that counted
        assertEquals(List.of(200, 200, 200), List.of(call(a(), "u1"), call(a(), "u1"), call(a(), "u1")));
        assertEquals("3/10", b().queryParam("identity", "key:u1").get("/quarkus/admin/usage").asString());
        b().queryParam("identity", "key:u1").delete("/quarkus/admin/usage").then().statusCode(200);
        assertEquals("0/10", a().queryParam("identity", "key:u1").get("/quarkus/admin/usage").asString());
        a().delete("/quarkus/admin/limits").then().statusCode(200);
        await("B takes the override back", () -> b().get("/quarkus/admin/limits").asString().equals("3/3600000 overridden=false"));
    }

    /**
     * A block of a few seconds holds on both instances, then ends on both by itself. Whether a call falls in the
     * block is told by the end the instances list, not by how fast this machine is: a call answered before that end
     * is refused, one sent after it is let in. Should the machine be too slow to call both instances before the end,
     * the test starts again with a new key and a block twice as long.
     */
    @Test
    void aBlockOfAFewSecondsHoldsOnBothInstancesThenEnds() {
        for (long millis = 2000; ; millis *= 2) {
            if (blockHeldOnBothThenEnded("b" + millis, millis)) {
                return;
            }
            assertTrue(millis < 30_000, "no call reached an instance within a block of " + millis + " ms");
        }
    }

    /**
     * Blocks {@code key} for {@code millis} through A; whether a call on each instance was answered within the
     * block (then both instances let the key in again once it ended).
     */
    private static boolean blockHeldOnBothThenEnded(String key, long millis) {
        a().queryParam("identity", "key:" + key).queryParam("plan", "blocked").queryParam("millis", millis)
                .put("/quarkus/admin/assignments").then().statusCode(200);
        // A applies its own change before it answers; none listed: the block has ended already
        long until = blockEnd(a(), key);
        if (until < 0) {
            return false;
        }
        // asked without a call, which would be counted until B applies the block
        await("B applies the block (or it has ended)", () -> blockEnd(b(), key) == until || System.currentTimeMillis() >= until);
        if (!callDuringBlock(b(), key, until) || !callDuringBlock(a(), key, until)) {
            return false;
        }
        // refused calls are not counted: the key has its 3 calls an hour once the block ends
        await("the block ends on A", () -> call(a(), key) == 200);
        await("the block ends on B", () -> call(b(), key) == 200);
        return true;
    }

    /** When the block of {@code key} ends as {@code instance} lists it, in milliseconds since the epoch; -1 for none. */
    private static long blockEnd(RequestSpecification instance, String key) {
        String prefix = "key:" + key + "=blocked until ";
        for (String a : instance.get("/quarkus/admin/assignments").asString().split(",")) {
            if (a.startsWith(prefix)) {
                return Long.parseLong(a.substring(prefix.length()));
            }
        }
        return -1;
    }

    /**
     * Calls {@code instance} as {@code key}, blocked until {@code until} by this machine's clock (the instances'
     * too): answered before then it must be refused, sent after it let in. Whether it was answered before then.
     */
    private static boolean callDuringBlock(RequestSpecification instance, String key, long until) {
        long sent = System.currentTimeMillis();
        int status = call(instance, key);
        long answered = System.currentTimeMillis();
        if (answered < until) {
            assertEquals(403, status, "a call answered " + (until - answered) + " ms before the block ends");
            return true;
        }
        if (sent >= until) {
            assertEquals(200, status, "a call sent " + (sent - until) + " ms after the block ended");
        } else {
            assertTrue(status == 403 || status == 200, "a call made as the block ended: " + status);
        }
        return false;
    }

    @Test
    void theMostDeniedAreSummedOverBothInstances() {
        // three calls pass in the hour (the annotation's limit), every other one is denied by one instance or the other
        for (int i = 0; i < 10; i++) {
            call(a(), "flood-heavy");
            call(b(), "flood-heavy");
        }
        for (int i = 0; i < 5; i++) {
            call(b(), "flood-light");
        }
        await("both instances' denials reach the store", () -> a().get("/quarkus/admin/top?n=2").asString()
                .equals("key:flood-heavy=17,key:flood-light=2"));
        assertTrue(b().get("/quarkus/admin/top?n=1").asString().equals("key:flood-heavy=17"));
    }

    private static void await(String what, BooleanSupplier condition) {
        SecondInstance.await(what, condition);
    }
}
