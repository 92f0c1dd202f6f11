package it.throttle.lts;

import it.throttle.scenarios.PrometheusText;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code throttle.on-store-failure=allow} (the default): without Redis the application still serves,
 * uncounted, so it stays ready; the check says Redis is unreachable.
 */
@QuarkusTest
@TestProfile(StoreDownAllowsTest.Allow.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class StoreDownAllowsTest {

    public static class Allow implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("throttle.on-store-failure", "allow", "throttle.redis.timeout", "300ms");
        }
    }

    @Test
    void readinessStaysUpWithRedisUnreachableAndCallsPassUncounted() {
        Response up = Observed.readiness();
        up.then().statusCode(200).body("status", equalTo("UP"));
        assertEquals(Map.of("store", "redis", "reachable", true), Observed.throttleCheck(up).get("data"));
        given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200);
        PrometheusText before = Observed.metrics();

        RedisResource.redis.kill();
        Response down = Observed.readiness();
        down.then().statusCode(200).body("status", equalTo("UP"));
        Map<String, Object> check = Observed.throttleCheck(down);
        assertEquals("UP", check.get("status"));
        assertEquals(Map.of("store", "redis", "reachable", false), check.get("data"));

        for (int i = 0; i < 5; i++) {
            given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200)
                    .header("RateLimit", nullValue());
        }
        PrometheusText after = Observed.metrics();
        Map<String, String> passed = Observed.calls("lts-guarded", "store-failure-allowed");
        assertEquals(5.0, after.required(Observed.CALLS, passed) - before.value(Observed.CALLS, passed));

        RedisResource.redis.restart();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        Response back;
        do {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            back = Observed.readiness();
            back.then().statusCode(200).body("status", equalTo("UP"));
        } while (!Boolean.TRUE.equals(dataOf(back).get("reachable")) && System.nanoTime() < deadline);
        assertEquals(Map.of("store", "redis", "reachable", true), dataOf(back), "reachable again after the restart");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> dataOf(Response health) {
        return (Map<String, Object>) Observed.throttleCheck(health).get("data");
    }
}
