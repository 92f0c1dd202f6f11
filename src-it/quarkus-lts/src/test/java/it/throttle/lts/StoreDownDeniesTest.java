package it.throttle.lts;

import it.throttle.quarkus.RedisResource;
import it.throttle.quarkus.StoreFailuresDenied;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.PrometheusText;
import it.throttle.scenarios.StoreOutage;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code throttle.on-store-failure=deny}: the application cannot serve throttled calls without Redis, so the
 * readiness check goes DOWN while Redis is dead, and UP again once it is back — and then calls are counted at
 * once, so that an orchestrator never routes traffic to an instance that still refuses it.
 */
@QuarkusTest
@TestProfile(StoreFailuresDenied.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class StoreDownDeniesTest {

    @Test
    void withDenyTheOpenApiDocumentAlsoShowsThe503OfThrottledOperations() {
        var doc = given().accept("application/json").get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
        assertEquals("#/components/responses/ThrottleUnavailable",
                doc.getString("paths.'/it/override/limited'.get.responses.'503'.$ref"));
        assertTrue(doc.getMap("components.responses").containsKey("ThrottleUnavailable"));
        assertTrue(!doc.getMap("paths.'/it/open'.get.responses").containsKey("503"));
    }

    @Test
    void readinessIsDownWhileRedisIsDeadAndOnceUpAgainCallsAreCounted() {
        Observed.assertReady("redis");
        given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200);
        PrometheusText before = Observed.metrics();
        StoreOutage outage = new StoreOutage(Observability.quarkus(RestAssured.port), RestAssured.port, RedisResource.redis, true);

        RedisResource.redis.kill();
        try {
            outage.whileRedisIsDead();
            for (int i = 0; i < 5; i++) {
                given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(503);
            }
            PrometheusText after = Observed.metrics();
            Map<String, String> failed = Observed.calls("lts-guarded", "store-failure-denied");
            assertEquals(5.0, after.required(Observed.CALLS, failed) - before.value(Observed.CALLS, failed));
            double failedStoreCalls = 0;
            for (String outcome : List.of("failure", "timeout")) {
                Map<String, String> series = Observed.storeCalls("redis", outcome);
                failedStoreCalls += after.required(Observed.STORE_CALLS_COUNT, series) - before.value(Observed.STORE_CALLS_COUNT, series);
            }
            assertTrue(failedStoreCalls >= 1, "the failed store calls are timed: " + failedStoreCalls);
        } finally {
            RedisResource.redis.restart();
        }
        outage.onceReachableCallsAreCounted();
        assertEquals(Map.of("store", "redis", "reachable", true), Observed.throttleCheck(Observed.readiness()).get("data"));
    }
}
