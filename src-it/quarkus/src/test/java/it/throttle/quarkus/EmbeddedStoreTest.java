package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.QuarkusClient;
import it.throttle.scenarios.UnmappedExceptionScenarios;
import it.throttle.scenarios.WaitingScenarios;

/** The scenarios on Quarkus with no Redis configured: the embedded store. */
@QuarkusTest
@TestProfile(EmbeddedStoreTest.Embedded.class)
class EmbeddedStoreTest extends QuarkusClient
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, UnmappedExceptionScenarios {

    public static class Embedded implements QuarkusTestProfile {
    }
}
