package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

/** {@code throttle.on-store-failure=deny}: without Redis, throttled calls get 503 with Retry-After. */
@QuarkusTest
@TestProfile(DenyOnFailureTest.Profile.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class DenyOnFailureTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // the default timeout: a killed Redis refuses commands at once
            return Map.of("throttle.on-store-failure", "deny");
        }
    }

    @Test
    void aDeadRedisGives503WithRetryAfterAndUnthrottledEndpointsStillWork() {
        given().header("X-Forwarded-For", "10.5.0.1").get("/it/fixed").then().statusCode(200);
        RedisResource.redis.kill();
        for (int i = 0; i < 20; i++) {
            given().header("X-Forwarded-For", "10.5.0." + (i + 2)).get("/it/fixed").then().statusCode(503)
                    .header("Retry-After", matchesPattern("[1-9]\\d*"))
                    .header("RateLimit", nullValue())
                    .contentType(containsString("application/problem+json"))
                    .body("status", equalTo(503));
        }
        given().get("/it/open").then().statusCode(200);
    }
}
