package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.QuarkusClient;
import it.throttle.scenarios.UnmappedExceptionScenarios;
import it.throttle.scenarios.WaitingScenarios;

/** The scenarios on Quarkus, counting in a three-primary Redis Cluster. */
@QuarkusTest
@TestProfile(OnClusterTest.Profile.class)
@QuarkusTestResource(value = ClusterResource.class, restrictToAnnotatedClass = true)
class OnClusterTest extends QuarkusClient
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, UnmappedExceptionScenarios {

    /** Its own profile, so the application restarts with the cluster's settings. */
    public static class Profile implements QuarkusTestProfile {
    }
}
