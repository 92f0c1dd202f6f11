package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
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
 * In-flight limits seen from two instances of the application on one Redis ({@link SecondInstance}): slow calls of
 * one API key, limited to 2 in progress, fired at both at once never work more than 2 at a time (from the times
 * each instance says its calls worked); seats come back when calls end; seats of an instance killed while its
 * calls work come back when their lease (20 s) ends.
 */
@QuarkusIntegrationTest
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InFlightAcrossInstancesIT {

    private static SecondInstance instanceB;

    @BeforeAll
    static void startInstanceB() throws IOException {
        instanceB = SecondInstance.start("in-flight-b", "/quarkus/slow/in-progress");
    }

    @AfterAll
    static void stopInstanceB() throws InterruptedException {
        if (instanceB != null) {
            instanceB.close();
        }
    }

    private static int call(RequestSpecification instance, String key, long ms) {
        return instance.header("X-API-Key", key).get("/quarkus/slow?ms=" + ms + "&key=" + key).statusCode();
    }

    @Test
    @Order(1)
    void slowCallsFiredAtTwoInstancesNeverWorkMoreThanTwoAtATime() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(20);
        try {
            List<CompletableFuture<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> call(RestAssured.given(), "both", 300), callers));
                calls.add(CompletableFuture.supplyAsync(() -> call(instanceB.given(), "both", 300), callers));
            }
            int worked = 0;
            for (CompletableFuture<Integer> c : calls) {
                int status = c.get(60, TimeUnit.SECONDS);
                assertTrue(status == 200 || status == 429, "status " + status);
                worked += status == 200 ? 1 : 0;
            }
            assertTrue(worked >= 2, "only " + worked + " calls worked");
            List<long[]> intervals = new ArrayList<>();
            intervals.addAll(worked(RestAssured::given, "both"));
            intervals.addAll(worked(instanceB::given, "both"));
            assertEquals(worked, intervals.size());
            // at each start, the calls working then: started at or before it and not ended before it
            for (long[] i : intervals) {
                long atOnce = intervals.stream().filter(j -> j[0] <= i[0] && j[1] >= i[0]).count();
                assertTrue(atOnce <= 2, atOnce + " calls worked at once at " + i[0]);
            }
        } finally {
            callers.shutdownNow();
        }
        // every seat came back: two calls work at once again, one on each instance
        SecondInstance.await("the seats come back", () -> {
            CompletableFuture<Integer> a = CompletableFuture.supplyAsync(() -> call(RestAssured.given(), "both", 200));
            int b = call(instanceB.given(), "both", 200);
            return b == 200 && a.join() == 200;
        });
    }

    @Test
    @Order(2)
    void theSeatsOfAKilledInstanceComeBackWhenTheirLeaseEnds() throws Exception {
        // two calls that would work for two minutes hold both seats on B
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> call(instanceB.given(), "killed", 120_000));
        CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> call(instanceB.given(), "killed", 120_000));
        SecondInstance.await("both calls work on B", () -> instanceB.given().get("/quarkus/slow/in-progress").asString().equals("2"));
        instanceB.kill();
        instanceB = null;
        assertEquals(429, call(RestAssured.given(), "killed", 0), "the seats are still held");
        // the lease is 20 s: a deadline of 60 s is reached only if the seats never come back
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (call(RestAssured.given(), "killed", 0) != 200) {
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
