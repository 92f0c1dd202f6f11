package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

/** {@code throttle.headers=none}. */
@QuarkusTest
@TestProfile(Profiles.NoFields.class)
class NoFieldsDialectTest {

    @Test
    void noFieldsButRetryAfterStillComesWithA429() {
        for (int i = 0; i < 3; i++) {
            given().header("X-Forwarded-For", "10.9.9.2").get("/it/fixed").then().statusCode(200)
                    .header("RateLimit", nullValue()).header("X-RateLimit-Limit", nullValue());
        }
        given().header("X-Forwarded-For", "10.9.9.2").get("/it/fixed").then().statusCode(429)
                .header("Retry-After", matchesPattern("[1-9]\\d*")).header("RateLimit", nullValue());
    }
}
