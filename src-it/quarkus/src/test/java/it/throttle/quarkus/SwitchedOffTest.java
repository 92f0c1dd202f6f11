package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.nullValue;

/** {@code throttle.enabled=false}: nothing is limited, no fields are sent. */
@QuarkusTest
@TestProfile(SwitchedOffTest.Profile.class)
class SwitchedOffTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("throttle.enabled", "false");
        }
    }

    @Test
    void theMasterSwitchTurnsEveryLimitOff() {
        for (int i = 0; i < 6; i++) {
            given().header("X-Forwarded-For", "10.3.3.3").get("/it/fixed").then().statusCode(200).header("RateLimit", nullValue());
            given().header("X-Forwarded-For", "10.3.3.3").get("/it/service").then().statusCode(200);
        }
    }
}
