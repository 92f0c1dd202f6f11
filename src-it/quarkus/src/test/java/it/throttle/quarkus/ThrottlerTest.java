package it.throttle.quarkus;

import io.github.throttle.Decision;
import io.github.throttle.Throttler;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The programmatic entry point, on Redis: acquire, report usage, reset — also of an annotated bucket. */
@QuarkusTest
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ThrottlerTest {

    @Inject
    Throttler throttler;

    @Test
    void acquireCountsReportsAndResetForgets() {
        Throttler.Rate rate = Throttler.Rate.sliding(10, Duration.ofHours(1), Duration.ofMinutes(1));
        assertEquals(7, throttler.acquire("exports", "user:ann", 3, rate).remaining());
        Decision d = throttler.acquire("exports", "user:ann", 8, rate);
        assertFalse(d.allowed());
        assertTrue(d.retryAfterMillis() > 3_500_000);
        assertEquals(7, throttler.count("exports", "user:ann", rate).remaining());
        assertEquals(7, throttler.count("exports", "user:ann", rate).remaining(), "a report records nothing");
        throttler.reset("exports", "user:ann");
        assertEquals(10, throttler.count("exports", "user:ann", rate).remaining());
        assertEquals(0, throttler.acquireAsync("exports", "user:ann", 10, rate).toCompletableFuture().join().remaining());
    }

    @Test
    void resetClearsWhatAnAnnotatedMethodCounted() {
        String ip = "10.66.0.1";
        given().header("X-Forwarded-For", ip).get("/it/shared-a").then().statusCode(200);
        given().header("X-Forwarded-For", ip).get("/it/shared-b").then().statusCode(200);
        given().header("X-Forwarded-For", ip).get("/it/shared-a").then().statusCode(200);
        given().header("X-Forwarded-For", ip).get("/it/shared-b").then().statusCode(429);
        assertEquals(0, throttler.count("shared", "ip:" + ip, Throttler.Rate.of(3, Duration.ofHours(1))).remaining());
        throttler.reset("shared", "ip:" + ip);
        given().header("X-Forwarded-For", ip).get("/it/shared-b").then().statusCode(200);
    }
}
