package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import it.throttle.scenarios.ThrottleScenarios;

/** The scenarios on Quarkus with no Redis configured: the embedded store. */
@QuarkusTest
@TestProfile(EmbeddedStoreTest.Embedded.class)
class EmbeddedStoreTest extends ThrottleScenarios {

    public static class Embedded implements QuarkusTestProfile {
    }

    @Override
    protected String baseUri() {
        return "http://127.0.0.1";
    }

    @Override
    protected int port() {
        return RestAssured.port;
    }
}
