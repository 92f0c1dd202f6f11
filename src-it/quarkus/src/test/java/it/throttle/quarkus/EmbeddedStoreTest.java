package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import it.throttle.scenarios.QuarkusScenarios;

/** The scenarios on Quarkus with no Redis configured: the embedded store. */
@QuarkusTest
@TestProfile(EmbeddedStoreTest.Embedded.class)
class EmbeddedStoreTest extends QuarkusScenarios {

    public static class Embedded implements QuarkusTestProfile {
    }
}
