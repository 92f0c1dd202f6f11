package it.throttle.lts;

import io.github.throttle.ThrottleAdmin;
import io.github.throttle.testing.ThrottleClock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;

/** The README's "Testing your application" example, as written there: it moves time instead of sleeping. */
@QuarkusTest
@TestProfile(LoginThrottleTest.ManualClock.class)
class LoginThrottleTest {
    public static class ManualClock implements QuarkusTestProfile {
        public Map<String, String> getConfigOverrides() { return Map.of("throttle.clock", "manual"); }
    }

    @Inject ThrottleClock clock;
    @Inject ThrottleAdmin admin;

    @BeforeEach void freshWindow() { clock.advanceToNext(Duration.ofMinutes(1)); }
    @AfterEach void forget() { admin.resetAll(); }

    @Test void theSixthLoginInAMinuteWaitsAMinute() {
        for (int i = 0; i < 5; i++) given().post("/login").then().statusCode(200);
        given().post("/login").then().statusCode(429).header("Retry-After", "60");
        clock.advance(Duration.ofMinutes(1));
        given().post("/login").then().statusCode(200);
    }

    @Test void eachTestStartsFromZero() {
        for (int i = 0; i < 5; i++) given().post("/login").then().statusCode(200);
    }

    @Test void anEarlierMoveOfTheClockChangesNothing() {
        clock.advance(Duration.ofSeconds(10));
        clock.advanceToNext(Duration.ofMinutes(1));
        for (int i = 0; i < 5; i++) given().post("/login").then().statusCode(200);
        given().post("/login").then().statusCode(429).header("Retry-After", "60");
    }
}
