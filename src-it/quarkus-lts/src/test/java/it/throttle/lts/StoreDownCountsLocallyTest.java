package it.throttle.lts;

import it.throttle.quarkus.RedisResource;
import it.throttle.scenarios.Observability;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code throttle.on-store-failure=local} with {@code throttle.local.share=0.5}: while Redis fails, this instance
 * counts each client itself against half of each limit ({@code /lts/local}: 6 an hour, so 3), stays ready, and
 * answers 429 with the usual fields, never an error; once Redis answers, counting is back there. Over the whole
 * window a client gets at most the bounds the README states: {@code limit + share} (one instance) when Redis kept
 * its counts, {@code 2 × limit + share} when it restarted empty.
 */
@QuarkusTest
@TestProfile(Profiles.StoreFailuresCountedLocally.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class StoreDownCountsLocallyTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final int LIMIT = 6;
    private static final int LOCAL = 3;

    private static Response call(String client) {
        return given().header("X-Forwarded-For", client).get("/lts/local");
    }

    /** Calls {@code /lts/local} as {@code client} until the first 429 (at most 20 calls); the calls allowed. */
    private static int allowedUntilDenied(String client) {
        for (int n = 0; n < 20; n++) {
            Response r = call(client);
            if (r.statusCode() == 429) {
                return n;
            }
            assertEquals(200, r.statusCode(), r.asString());
        }
        throw new AssertionError(client + " was never denied");
    }

    private static void awaitReachable(boolean reachable) {
        Observability.await("readiness reports reachable=" + reachable, DEADLINE,
                () -> Boolean.toString(reachable).equals(Observability.data(Observed.throttleCheck(Observed.readiness()), "reachable")));
    }

    @Test
    void redisKilledUnderLoadEachClientGetsItsLocalShareAndNoCallFails() throws Exception {
        awaitReachable(true);
        String a = Observed.freshAddress();
        call(a).then().statusCode(200);
        call(a).then().statusCode(200);
        Observability observed = Observability.quarkus(RestAssured.port);
        Map<String, Double> before = observed.calls("lts-local");

        // a steady load of other clients while Redis dies and comes back: none of them may see an error
        AtomicBoolean loading = new AtomicBoolean(true);
        Map<Integer, AtomicInteger> loadStatuses = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        Future<?> load = pool.submit(() -> {
            while (loading.get()) {
                int status = given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").statusCode();
                loadStatuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
            }
        });
        RedisResource.redis.kill();
        int allowedA;
        try {
            awaitReachable(false);
            Response ready = Observed.readiness();
            assertEquals(200, ready.statusCode(), ready.asString());
            assertEquals("UP", ready.jsonPath().getString("status"), ready.asString());

            // three clients, eight concurrent calls each: each gets exactly its local share
            List<String> clients = List.of(a, Observed.freshAddress(), Observed.freshAddress());
            List<Future<Response>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                for (String c : clients) {
                    calls.add(pool.submit(() -> call(c)));
                }
            }
            Map<String, Integer> allowed = new ConcurrentHashMap<>();
            for (int i = 0; i < calls.size(); i++) {
                Response r = calls.get(i).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                String c = clients.get(i % clients.size());
                if (r.statusCode() == 200) {
                    allowed.merge(c, 1, Integer::sum);
                } else {
                    assertEquals(429, r.statusCode(), r.asString());
                    r.then().header("Retry-After", org.hamcrest.Matchers.notNullValue())
                            .header("RateLimit-Policy", containsString("q=" + LOCAL));
                }
            }
            for (String c : clients) {
                assertEquals(LOCAL, allowed.getOrDefault(c, 0), "calls allowed locally for " + c);
            }
            allowedA = 2 + LOCAL;
            assertEquals(Map.of("local-allowed", 9.0, "local-denied", 15.0), Observability.changes(before, observed.calls("lts-local")));
        } finally {
            RedisResource.redis.restart();
        }
        awaitReachable(true);
        loading.set(false);
        load.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        pool.shutdown();
        assertEquals(List.of(200), new ArrayList<>(loadStatuses.keySet()), "statuses seen by the load: " + loadStatuses);

        // Redis restarted empty: it counts the client afresh
        allowedA += allowedUntilDenied(a);
        assertEquals(2 + LOCAL + LIMIT, allowedA);
        assertTrue(allowedA <= 2 * LIMIT + LOCAL, "the bound for a Redis that restarted empty");
    }

    @Test
    void aRedisThatKeptItsCountsAllowsAClientAtMostTheLimitAndTheLocalShareOverTheWindow() {
        awaitReachable(true);
        String d = Observed.freshAddress();
        call(d).then().statusCode(200);
        call(d).then().statusCode(200);
        // Redis holds every script (they may write) until unpaused: calls time out, Redis keeps its counts
        assertEquals("OK", RedisResource.command("CLIENT", "PAUSE", "300000", "WRITE"));
        int allowed = 2;
        try {
            allowed += allowedUntilDenied(d);
            assertEquals(2 + LOCAL, allowed, "the local share, whatever Redis counted before");
            Response ready = Observed.readiness();
            assertEquals("UP", ready.jsonPath().getString("status"), ready.asString());
        } finally {
            RedisResource.command("CLIENT", "UNPAUSE");
        }
        awaitReachable(true);
        allowed += allowedUntilDenied(d);
        assertTrue(allowed <= LIMIT + LOCAL, allowed + " allowed: over the bound for a Redis that kept its counts");
        assertTrue(allowed > 2 + LOCAL, "counted in Redis again: " + allowed);
    }
}
