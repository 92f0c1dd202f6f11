package it.throttle.lts;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import it.throttle.scenarios.AdminChangesScenarios;

/** Overrides, usage, reset and top denied over the admin API on Quarkus REST. */
@QuarkusTest
@TestProfile(Profiles.AdminApiAndOtelMetrics.class)
class AdminChangesTest extends AdminChangesScenarios {
}
