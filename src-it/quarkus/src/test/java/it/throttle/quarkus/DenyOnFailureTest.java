package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import it.throttle.scenarios.Observability;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

/** {@code throttle.on-store-failure=deny}: without Redis, throttled calls get 503 with Retry-After. */
@QuarkusTest
@TestProfile(StoreFailuresDenied.class)
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class DenyOnFailureTest {

    @Test
    void aDeadRedisGives503WithRetryAfterAndUnthrottledEndpointsStillWork() {
        given().header("X-Forwarded-For", "10.5.0.1").get("/it/fixed").then().statusCode(200);
        RedisResource.redis.kill();
        try {
            for (int i = 0; i < 20; i++) {
                given().header("X-Forwarded-For", "10.5.0." + (i + 2)).get("/it/fixed").then().statusCode(503)
                        .header("Retry-After", matchesPattern("[1-9]\\d*"))
                        .header("RateLimit", nullValue())
                        .contentType(containsString("application/problem+json"))
                        .body("status", equalTo(503));
            }
            given().get("/it/open").then().statusCode(200);
        } finally {
            RedisResource.redis.restart();
        }
        // the next test on this application finds Redis counting again; a new client each time spends no quota
        AtomicInteger client = new AtomicInteger();
        Observability.await("calls are counted again", Duration.ofSeconds(30), () -> given()
                .header("X-Forwarded-For", "10.5.1." + (1 + client.getAndIncrement() % 250)).get("/it/fixed").statusCode() == 200);
    }
}
