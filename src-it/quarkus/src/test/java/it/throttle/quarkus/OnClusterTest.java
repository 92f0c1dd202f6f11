package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import it.throttle.scenarios.ThrottleScenarios;

/** The scenarios on Quarkus, counting in a three-primary Redis Cluster. */
@QuarkusTest
@TestProfile(OnClusterTest.Profile.class)
@QuarkusTestResource(value = ClusterResource.class, restrictToAnnotatedClass = true)
class OnClusterTest extends ThrottleScenarios {

    /** Its own profile, so the application restarts with the cluster's settings. */
    public static class Profile implements QuarkusTestProfile {
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
