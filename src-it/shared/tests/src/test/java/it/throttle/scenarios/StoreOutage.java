package it.throttle.scenarios;

import io.github.throttle.testing.RedisProcess;
import io.restassured.RestAssured;
import io.restassured.response.Response;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A Redis outage as an orchestrator and a client see it: the readiness check {@code throttle} and the
 * decisions agree. While Redis is dead the check says so ({@code DOWN} with {@code on-store-failure=deny},
 * {@code UP} but {@code reachable: false} with {@code allow}) and throttled calls get the failure decision; once
 * the check reports Redis reachable again, the very next calls are counted — no grace period, no sleep.
 *
 * <p>Uses {@code GET /it/fixed} of the shared application: 3 calls an hour per client.
 */
public final class StoreOutage {

    private static final String PATH = "/it/fixed";
    private static final int LIMIT = 3;
    /** Only a real fault makes a condition wait this long: a reconnect takes a second or two even on a loaded machine. */
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Clients of this class only (TEST-NET-1), so that no other scenario spends their quota. */
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final Observability observed;
    private final int port;
    private final RedisProcess redis;
    private final boolean denies;

    /**
     * @param port   the application's HTTP port
     * @param redis  the Redis it counts in
     * @param denies whether it runs with {@code throttle.on-store-failure=deny}
     */
    public StoreOutage(Observability observed, int port, RedisProcess redis, boolean denies) {
        this.observed = observed;
        this.port = port;
        this.redis = redis;
        this.denies = denies;
    }

    /** Ready with Redis; Redis killed: {@link #whileRedisIsDead()}; started again: {@link #onceReachableCallsAreCounted()}. */
    public void readinessAndCallsAgreeAcrossAnOutage() {
        Response up = observed.readiness();
        assertEquals(200, up.statusCode(), up.asString());
        assertEquals("UP", Observability.throttleCheck(up).get("status"), up.asString());
        assertEquals("true", Observability.data(Observability.throttleCheck(up), "reachable"), up.asString());
        redis.kill();
        try {
            whileRedisIsDead();
            // the rest of the application serves
            as(newClient(), "/it/open").then().statusCode(200);
        } finally {
            redis.restart();
        }
        onceReachableCallsAreCounted();
    }

    /**
     * Calls made while Redis is dead get the failure policy and are counted as such ({@code store-failure-allowed}
     * or {@code -denied}), without their limit: an allowed fourth call of one client passes too, without fields.
     */
    public void failurePolicyCallsAreCountedAsSuch() {
        String bucket = "it.throttle.app.LimitedResource#fixed";
        Map<String, Double> before = observed.calls(bucket);
        String client = newClient();
        redis.kill();
        try {
            for (int i = 0; i < LIMIT + 1; i++) {
                Response r = as(client, PATH);
                if (denies) {
                    r.then().statusCode(503);
                } else {
                    r.then().statusCode(200).header("RateLimit", nullValue());
                }
            }
        } finally {
            redis.restart();
        }
        String result = denies ? "store-failure-denied" : "store-failure-allowed";
        assertEquals(Map.of(result, (double) LIMIT + 1), Observability.changes(before, observed.calls(bucket)));
        onceReachableCallsAreCounted();
    }

    /** Checks the application while Redis is dead: readiness says so, and a throttled call gets the failure decision. */
    public void whileRedisIsDead() {
        Observability.await("readiness reports Redis unreachable", DEADLINE,
                () -> "false".equals(Observability.data(Observability.throttleCheck(observed.readiness()), "reachable")));
        Response r = observed.readiness();
        String status = denies ? "DOWN" : "UP";
        assertEquals(denies ? 503 : 200, r.statusCode(), r.asString());
        assertEquals(status, r.jsonPath().getString("status"), r.asString());
        assertEquals(status, Observability.throttleCheck(r).get("status"), r.asString());
        assertEquals("redis", Observability.data(Observability.throttleCheck(r), "store"), r.asString());
        if (denies) {
            as(newClient(), PATH).then().statusCode(503);
        } else {
            as(newClient(), PATH).then().statusCode(200).header("RateLimit", nullValue());
        }
    }

    /**
     * After Redis was started again: waits for the readiness check to report it reachable (and {@code UP}), then
     * requires the next calls to be counted: a new client gets {@value #LIMIT} calls with rate-limit fields, then 429.
     */
    public void onceReachableCallsAreCounted() {
        Observability.await("readiness reports Redis reachable again", DEADLINE,
                () -> "true".equals(Observability.data(Observability.throttleCheck(observed.readiness()), "reachable")));
        Response ready = observed.readiness();
        assertEquals(200, ready.statusCode(), ready.asString());
        assertEquals("UP", Observability.throttleCheck(ready).get("status"), ready.asString());

        String client = newClient();
        for (int i = 0; i < LIMIT; i++) {
            as(client, PATH).then().statusCode(200).header("RateLimit", notNullValue());
        }
        as(client, PATH).then().statusCode(429);
    }

    private Response as(String client, String path) {
        return RestAssured.given().baseUri("http://127.0.0.1").port(port).header("X-Forwarded-For", client).get(path);
    }

    private static String newClient() {
        int n = CLIENTS.getAndIncrement();
        // 100.64.0.0/10 (shared address space): no other scenario's caller, in no list
        return "100.64." + (n / 254 % 256) + "." + (1 + n % 254);
    }
}
