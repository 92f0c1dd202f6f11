package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import it.throttle.scenarios.QuarkusScenarios;

/** The scenarios on Quarkus, counting in a three-primary Redis Cluster. */
@QuarkusTest
@TestProfile(OnClusterTest.Profile.class)
@QuarkusTestResource(value = ClusterResource.class, restrictToAnnotatedClass = true)
class OnClusterTest extends QuarkusScenarios {

    /** Its own profile, so the application restarts with the cluster's settings. */
    public static class Profile implements QuarkusTestProfile {
    }
}
