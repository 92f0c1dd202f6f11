package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Limits changed while running, seen from two instances of the application on one Redis. Instance A is the
 * packaged application Quarkus starts for this test; instance B is a second process this test starts from the
 * same packaged jar, on a port of its own, with the same Redis URI: two JVMs, each with its own limiter, deny cache
 * and poll of the shared settings, as two servers behind a load balancer. Changes are made on one instance and
 * awaited on the other with a deadline only a real fault reaches (the product applies them within a second).
 */
@QuarkusIntegrationTest
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class AdminAcrossInstancesIT {

    private static SecondInstance instanceB;

    @BeforeAll
    static void startInstanceB() throws IOException {
        instanceB = SecondInstance.start("instance-b", "/quarkus/admin/limits");
    }

    @AfterAll
    static void stopInstanceB() throws InterruptedException {
        if (instanceB != null) {
            instanceB.close();
        }
    }

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

    @Test
    void aBlockForTwoSecondsHoldsOnBothInstancesThenEnds() {
        a().queryParam("identity", "key:b1").queryParam("plan", "blocked").queryParam("millis", 2000)
                .put("/quarkus/admin/assignments").then().statusCode(200);
        // asked without a call, which would be counted until B applies the block
        await("B applies the block", () -> b().get("/quarkus/admin/assignments").asString().contains("key:b1=blocked"));
        assertEquals(List.of(403, 403), List.of(call(b(), "b1"), call(a(), "b1")));
        await("the block ends on A", () -> call(a(), "b1") == 200);
        await("the block ends on B", () -> call(b(), "b1") == 200);
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
