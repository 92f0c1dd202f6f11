package it.throttle.quarkus;

import io.github.throttle.health.ThrottleReadiness;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Readiness and decisions agree on Quarkus 3.38.2, which has no SmallRye Health extension: Throttle's readiness
 * check is called as a bean, as an orchestrator's probe would call it. Redis killed: the check says so and calls get
 * the failure policy; Redis started again: once the check reports it reachable, the next calls are counted. Shown
 * under each failure policy by a test class of its own.
 */
abstract class ReadinessAgreement {

    /** Only a real fault makes a condition wait this long. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    @Inject
    @Readiness
    ThrottleReadiness readiness;

    /** Whether the application under test denies calls it cannot count ({@code throttle.on-store-failure=deny}). */
    abstract boolean denies();

    @Test
    void onceTheCheckReportsRedisReachableTheNextCallsAreCounted() {
        acrossAnOutage(readiness, denies());
    }

    /** {@code GET /it/fixed} (3 an hour per client) from a client of its own. */
    private static Response fixed(String client) {
        return given().header("X-Forwarded-For", client).get("/it/fixed");
    }

    /**
     * A client no other test of the application uses: the shared scenarios spend quotas of random clients of
     * 192.0.2.0/24, and the application's deny cache remembers them past a Redis restart.
     */
    private static String newClient() {
        return "10.250.0." + (1 + CLIENTS.getAndIncrement() % 254);
    }

    private static boolean reachable(HealthCheckResponse r) {
        return Boolean.TRUE.equals(r.getData().orElseThrow().get("reachable"));
    }

    private static HealthCheckResponse await(ThrottleReadiness check, boolean reachable) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        HealthCheckResponse r = check.call();
        while (reachable(r) != reachable) {
            assertTrue(System.nanoTime() < deadline, "readiness still says reachable=" + !reachable + " after 30 s");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            r = check.call();
        }
        return r;
    }

    private static void acrossAnOutage(ThrottleReadiness check, boolean denies) {
        HealthCheckResponse up = check.call();
        assertEquals(HealthCheckResponse.Status.UP, up.getStatus());
        assertTrue(reachable(up));
        RedisResource.redis.kill();
        try {
            HealthCheckResponse down = await(check, false);
            assertEquals(denies ? HealthCheckResponse.Status.DOWN : HealthCheckResponse.Status.UP, down.getStatus());
            if (denies) {
                fixed(newClient()).then().statusCode(503);
            } else {
                fixed(newClient()).then().statusCode(200).header("RateLimit", nullValue());
            }
        } finally {
            RedisResource.redis.restart();
        }
        assertEquals(HealthCheckResponse.Status.UP, await(check, true).getStatus());
        String client = newClient();
        for (int i = 0; i < 3; i++) {
            fixed(client).then().statusCode(200).header("RateLimit", notNullValue());
        }
        fixed(client).then().statusCode(429);
    }
}
