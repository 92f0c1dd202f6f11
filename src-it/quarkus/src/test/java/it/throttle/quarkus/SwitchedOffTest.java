package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.nullValue;

/** {@code throttle.enabled=false}: nothing is limited, no fields are sent. */
@QuarkusTest
@TestProfile(Profiles.SwitchedOff.class)
class SwitchedOffTest {

    @Test
    void theMasterSwitchTurnsEveryLimitOff() {
        for (int i = 0; i < 6; i++) {
            given().header("X-Forwarded-For", "10.3.3.3").get("/it/fixed").then().statusCode(200).header("RateLimit", nullValue());
            given().header("X-Forwarded-For", "10.3.3.3").get("/it/service").then().statusCode(200);
        }
    }
}
