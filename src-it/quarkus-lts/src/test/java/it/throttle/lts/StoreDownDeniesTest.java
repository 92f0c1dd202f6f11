package it.throttle.lts;

import it.throttle.scenarios.PrometheusText;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code throttle.on-store-failure=deny}: the application cannot serve throttled calls without Redis, so the
 * readiness check goes DOWN while Redis is dead, and UP again once it is back.
 */
@QuarkusTest
@TestProfile(StoreDownDeniesTest.Deny.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class StoreDownDeniesTest {

    public static class Deny implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("throttle.on-store-failure", "deny", "throttle.redis.timeout", "300ms");
        }
    }

    @Test
    void withDenyTheOpenApiDocumentAlsoShowsThe503OfThrottledOperations() {
        var doc = given().accept("application/json").get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
        assertEquals("#/components/responses/ThrottleUnavailable",
                doc.getString("paths.'/it/override/limited'.get.responses.'503'.$ref"));
        assertTrue(doc.getMap("components.responses").containsKey("ThrottleUnavailable"));
        assertTrue(!doc.getMap("paths.'/it/open'.get.responses").containsKey("503"));
    }

    @Test
    void readinessIsDownWhileRedisIsDeadAndUpAgainAfterARestart() {
        Response up = Observed.readiness();
        up.then().statusCode(200).body("status", equalTo("UP"));
        assertEquals("UP", Observed.throttleCheck(up).get("status"));
        assertEquals(Map.of("store", "redis", "reachable", true), Observed.throttleCheck(up).get("data"));
        given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200);
        PrometheusText before = Observed.metrics();

        RedisResource.redis.kill();
        Response down = Observed.readiness();
        down.then().statusCode(503).body("status", equalTo("DOWN"));
        Map<String, Object> check = Observed.throttleCheck(down);
        assertEquals("DOWN", check.get("status"));
        assertEquals(Map.of("store", "redis", "reachable", false), check.get("data"));

        for (int i = 0; i < 5; i++) {
            given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(503);
        }
        PrometheusText after = Observed.metrics();
        Map<String, String> failed = Observed.calls("lts-guarded", "store-failure-denied");
        assertEquals(5.0, after.required(Observed.CALLS, failed) - before.value(Observed.CALLS, failed));
        double failedStoreCalls = 0;
        for (String outcome : List.of("failure", "timeout")) {
            Map<String, String> series = Observed.storeCalls("redis", outcome);
            failedStoreCalls += after.required(Observed.STORE_CALLS_COUNT, series) - before.required(Observed.STORE_CALLS_COUNT, series);
        }
        assertTrue(failedStoreCalls >= 1, "the failed store calls are timed: " + failedStoreCalls);

        RedisResource.redis.restart();
        Response back = awaitReady();
        assertEquals("UP", Observed.throttleCheck(back).get("status"));
        assertEquals(Map.of("store", "redis", "reachable", true), Observed.throttleCheck(back).get("data"));
        given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200);
    }

    /** Asks until ready: the client reconnects to the restarted Redis on its own time. */
    private static Response awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        Response r;
        do {
            r = Observed.readiness();
            if (r.statusCode() == 200) {
                return r;
            }
            assertEquals(503, r.statusCode(), r.asString());
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        } while (System.nanoTime() < deadline);
        throw new AssertionError("not ready 15 s after Redis restarted: " + r.asString());
    }
}
