package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

/** {@code throttle.headers=x-ratelimit}. */
@QuarkusTest
@TestProfile(Profiles.XRateLimitFields.class)
class XRateLimitDialectTest {

    @Test
    void theXRateLimitTrioReplacesTheIetfFields() {
        given().header("X-Forwarded-For", "10.9.9.1").get("/it/weighted").then().statusCode(200)
                .header("X-RateLimit-Limit", equalTo("10"))
                .header("X-RateLimit-Remaining", equalTo("6"))
                .header("X-RateLimit-Reset", matchesPattern("\\d+"))
                .header("RateLimit", nullValue());
        given().header("X-Forwarded-For", "10.9.9.1").get("/it/weighted").then().statusCode(200);
        given().header("X-Forwarded-For", "10.9.9.1").get("/it/weighted").then().statusCode(429)
                .header("Retry-After", matchesPattern("[1-9]\\d*"))
                .header("X-RateLimit-Remaining", equalTo("2"));
    }

    @Test
    void unlimitedAndBlockedCallersGetNoneOfTheTrio() {
        for (String plan : new String[] {"unlimited", "blocked"}) {
            given().header("X-Forwarded-For", "10.9.9.2").header("X-Plan", plan).get("/it/fixed").then()
                    .statusCode(plan.equals("unlimited") ? 200 : 403)
                    .header("X-RateLimit-Limit", nullValue()).header("X-RateLimit-Remaining", nullValue())
                    .header("X-RateLimit-Reset", nullValue()).header("Retry-After", nullValue());
        }
        given().header("X-Forwarded-For", "10.9.9.2").get("/it/fixed").then().statusCode(200).header("X-RateLimit-Remaining", equalTo("2"));
    }
}
