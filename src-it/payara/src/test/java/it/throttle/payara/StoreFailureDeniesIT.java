package it.throttle.payara;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.StoreOutage;
import io.github.throttle.testing.RedisProcess;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Payara Micro counting in a real Redis with {@code throttle.on-store-failure=deny}: while Redis is dead,
 * throttled calls are refused and the readiness check {@code throttle} is DOWN; once Redis is back, it is UP
 * and calls are counted again.
 */
class StoreFailureDeniesIT {

    private static RedisProcess redis;
    private static PayaraMicro payara;

    private final AtomicInteger clients = new AtomicInteger();

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        Map<String, String> env = new HashMap<>();
        env.put("THROTTLE_REDIS_URI", redis.uri());
        env.put("THROTTLE_ON_STORE_FAILURE", "deny");
        payara = PayaraMicro.start("redis-deny", env);
    }

    @AfterAll
    static void stop() {
        try {
            if (payara != null) {
                payara.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    private static Observability observed() {
        return new Observability(payara.port());
    }

    /** A client of its own: no test, and no retry, spends another's quota. */
    private Response get(String path) {
        String client = "198.51.100." + (1 + clients.getAndIncrement() % 254);
        return RestAssured.given().baseUri("http://127.0.0.1").port(payara.port()).header("X-Forwarded-For", client).get(path);
    }

    @Test
    public void readinessIsDownWhileRedisIsDeadAndOnceUpAgainCallsAreCounted() {
        Response up = observed().readiness();
        up.then().statusCode(200);
        assertEquals("UP", Observability.throttleCheck(up).get("status"), up.asString());
        StoreOutage outage = new StoreOutage(observed(), payara.port(), true);

        redis.kill();
        try {
            outage.whileRedisIsDead();
            // throttled calls are refused, the rest of the application serves
            get("/it/open").then().statusCode(200);
        } finally {
            redis.restart();
        }
        outage.onceReachableCallsAreCounted();
    }

    @Test
    public void callsDeniedForAStoreFailureAreCounted() {
        String bucket = "it.throttle.app.LimitedResource#fixed";
        Map<String, Double> before = observed().calls(bucket);
        redis.kill();
        try {
            for (int i = 0; i < 2; i++) {
                get("/it/fixed").then().statusCode(503);
            }
        } finally {
            redis.restart();
        }
        assertEquals(Map.of("store-failure-denied", 2.0), Observability.changes(before, observed().calls(bucket)));
        awaitCounting();
    }

    /** Checks that, once readiness reports the restarted Redis reachable, calls are counted. */
    private void awaitCounting() {
        new StoreOutage(observed(), payara.port(), true).onceReachableCallsAreCounted();
    }
}
