package it.throttle.lts;

import it.throttle.quarkus.RedisResource;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.PrometheusText;
import it.throttle.scenarios.StoreOutage;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code throttle.on-store-failure=allow} (the default): without Redis the application still serves,
 * uncounted, so it stays ready; the check says Redis is unreachable. Once it says Redis is reachable again,
 * calls are counted at once.
 */
@QuarkusTest
@TestProfile(Profiles.StoreFailuresAllowed.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class StoreDownAllowsTest {

    @Test
    void readinessStaysUpWithRedisUnreachableAndCallsPassUncountedUntilItIsReachableAgain() {
        Observed.assertReady("redis");
        given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200);
        PrometheusText before = Observed.metrics();
        StoreOutage outage = new StoreOutage(Observability.quarkus(RestAssured.port), RestAssured.port, RedisResource.redis, false);

        RedisResource.redis.kill();
        try {
            outage.whileRedisIsDead();
            for (int i = 0; i < 5; i++) {
                given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200)
                        .header("RateLimit", nullValue());
            }
            PrometheusText after = Observed.metrics();
            Map<String, String> passed = Observed.calls("lts-guarded", "store-failure-allowed");
            assertEquals(5.0, after.required(Observed.CALLS, passed) - before.value(Observed.CALLS, passed));
        } finally {
            RedisResource.redis.restart();
        }
        outage.onceReachableCallsAreCounted();
    }
}
