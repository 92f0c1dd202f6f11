package it.throttle.payara;

import it.throttle.scenarios.Observability;
import io.github.throttle.testing.RedisProcess;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

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
    public void readinessIsDownWhileRedisIsDeadAndUpAgainOnceItIsBack() {
        Response up = observed().readiness();
        up.then().statusCode(200);
        assertEquals("UP", Observability.throttleCheck(up).get("status"), up.asString());

        redis.kill();
        try {
            await("readiness DOWN", () -> observed().readiness().statusCode() == 503);
            Response down = observed().readiness();
            Map<String, Object> check = Observability.throttleCheck(down);
            assertEquals("DOWN", down.jsonPath().getString("status"), down.asString());
            assertEquals("DOWN", check.get("status"), down.asString());
            assertEquals("redis", Observability.data(check, "store"), down.asString());
            assertEquals("false", Observability.data(check, "reachable"), down.asString());
            // throttled calls are refused, the rest of the application serves
            get("/it/fixed").then().statusCode(503);
            get("/it/open").then().statusCode(200);
        } finally {
            redis.restart();
        }

        await("readiness UP again", () -> observed().readiness().statusCode() == 200);
        Response again = observed().readiness();
        Map<String, Object> check = Observability.throttleCheck(again);
        assertEquals("UP", check.get("status"), again.asString());
        assertEquals("true", Observability.data(check, "reachable"), again.asString());
        awaitCounting();
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

    /** Waits until the application reaches the restarted Redis and counts again. */
    private void awaitCounting() {
        await("calls are counted again", () -> {
            Response r = get("/it/fixed");
            return r.statusCode() == 200 && r.header("RateLimit") != null;
        });
    }

    private static void await(String what, BooleanSupplier condition) {
        Observability.await(what, Duration.ofSeconds(30), condition);
    }
}
