package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In-flight limits seen from two instances of the application on one Redis ({@link SecondInstance}): of 20 calls
 * of one API key, limited to 2 in progress, fired at both at once and working until the test finishes them,
 * exactly 2 work and the rest are refused; seats come back when calls end; seats of an instance killed while its
 * calls work come back when their lease (20 s) ends.
 */
@QuarkusIntegrationTest
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InFlightAcrossInstancesIT {

    @RegisterExtension
    static final SecondInstance.PerClass instanceB = new SecondInstance.PerClass("in-flight-b", "/quarkus/slow/in-progress");

    /** A call of {@code key} named {@code id}: it works until {@link #finish finished}; its status. */
    private static int call(RequestSpecification instance, String key, String id) {
        return instance.header("X-API-Key", key).get("/quarkus/slow?id=" + id + "&key=" + key).statusCode();
    }

    private static void finish(RequestSpecification instance, String id) {
        instance.post("/quarkus/slow/finish?id=" + id).then().statusCode(200);
    }

    private static int inProgress(RequestSpecification instance) {
        return Integer.parseInt(instance.get("/quarkus/slow/in-progress").asString());
    }

    @Test
    @Order(1)
    void callsFiredAtTwoInstancesNeverWorkMoreThanTwoAtATime() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(20);
        try {
            List<CompletableFuture<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String id = "both-" + i;
                calls.add(CompletableFuture.supplyAsync(() -> call(RestAssured.given(), "both", id + "-a"), callers));
                calls.add(CompletableFuture.supplyAsync(() -> call(instanceB.given(), "both", id + "-b"), callers));
            }
            // the two calls let in work until finished; every other one is refused
            SecondInstance.await("18 calls refused", () -> calls.stream().filter(CompletableFuture::isDone).count() == 18);
            SecondInstance.await("2 calls working", () -> inProgress(RestAssured.given()) + inProgress(instanceB.given()) == 2);
            for (CompletableFuture<Integer> c : calls) {
                if (c.isDone()) {
                    assertEquals(429, c.get());
                }
            }
            for (int i = 0; i < 10; i++) {
                finish(RestAssured.given(), "both-" + i + "-a");
                finish(instanceB.given(), "both-" + i + "-b");
            }
            int worked = 0;
            for (CompletableFuture<Integer> c : calls) {
                worked += c.get(60, TimeUnit.SECONDS) == 200 ? 1 : 0;
            }
            assertEquals(2, worked);
            List<long[]> intervals = new ArrayList<>();
            intervals.addAll(worked(RestAssured::given, "both"));
            intervals.addAll(worked(instanceB::given, "both"));
            assertEquals(worked, intervals.size());
        } finally {
            callers.shutdownNow();
        }
        // every seat came back: two calls work at once again, one on each instance. A seat is given back just
        // after its call's answer is written, so a call sent at once may still be refused: both are sent again
        for (int n = 0; ; n++) {
            String a = "again-" + n + "-a";
            String b = "again-" + n + "-b";
            CompletableFuture<Integer> onA = CompletableFuture.supplyAsync(() -> call(RestAssured.given(), "both", a));
            CompletableFuture<Integer> onB = CompletableFuture.supplyAsync(() -> call(instanceB.given(), "both", b));
            SecondInstance.await("both calls answered or working", () -> (onA.isDone() || inProgress(RestAssured.given()) == 1)
                    && (onB.isDone() || inProgress(instanceB.given()) == 1));
            boolean bothLetIn = !onA.isDone() && !onB.isDone();
            finish(RestAssured.given(), a);
            finish(instanceB.given(), b);
            if (bothLetIn) {
                assertEquals(200, onA.get(60, TimeUnit.SECONDS));
                assertEquals(200, onB.get(60, TimeUnit.SECONDS));
                break;
            }
            onA.get(60, TimeUnit.SECONDS);
            onB.get(60, TimeUnit.SECONDS);
            assertTrue(n < 100, "two seats never came back");
        }
    }

    @Test
    @Order(2)
    void theSeatsOfAKilledInstanceComeBackWhenTheirLeaseEnds() throws Exception {
        // two calls that are never finished hold both seats on B
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> call(instanceB.given(), "killed", "held-1"));
        CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> call(instanceB.given(), "killed", "held-2"));
        SecondInstance.await("both calls work on B", () -> inProgress(instanceB.given()) == 2);
        instanceB.kill();
        // calls on A are finished before they come: one let in answers at once
        finish(RestAssured.given(), "probe");
        assertEquals(429, call(RestAssured.given(), "killed", "probe"), "the seats are still held");
        // the lease is 20 s: a deadline of 60 s is reached only if the seats never come back
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (call(RestAssured.given(), "killed", "probe") != 200) {
            assertTrue(System.nanoTime() < deadline, "the seats of the killed instance never came back");
            TimeUnit.MILLISECONDS.sleep(250);
        }
        first.handle((r, e) -> null).get(30, TimeUnit.SECONDS);
        second.handle((r, e) -> null).get(30, TimeUnit.SECONDS);
    }

    private static List<long[]> worked(Supplier<RequestSpecification> instance, String key) {
        List<long[]> intervals = new ArrayList<>();
        for (String line : instance.get().get("/quarkus/slow/worked").asString().split("\n")) {
            String[] p = line.split(" ");
            if (p.length == 3 && p[0].equals(key)) {
                intervals.add(new long[] {Long.parseLong(p[1]), Long.parseLong(p[2])});
            }
        }
        return intervals;
    }
}
