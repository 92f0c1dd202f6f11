package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTest;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.QuarkusClient;
import it.throttle.scenarios.UnmappedExceptionScenarios;
import it.throttle.scenarios.WaitingScenarios;

/** The scenarios on Quarkus with no Redis configured: the embedded store. */
@QuarkusTest
class EmbeddedStoreTest extends QuarkusClient
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, UnmappedExceptionScenarios {
}
