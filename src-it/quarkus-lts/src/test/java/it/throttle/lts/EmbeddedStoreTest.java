package it.throttle.lts;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.PrometheusText;
import it.throttle.scenarios.QuarkusClient;
import it.throttle.scenarios.UnmappedExceptionScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scenarios on the Quarkus LTS line with no Redis configured: the embedded store, always ready. */
@QuarkusTest
@TestProfile(Profiles.EmbeddedStore.class)
class EmbeddedStoreTest extends QuarkusClient
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, UnmappedExceptionScenarios {

    @Test
    void callsAreCountedUnderThePlanWhoseLimitsApplied() {
        PlanScenarios.callsAreCountedByPlan(this, Observability.quarkus(RestAssured.port));
    }

    @Test
    void readinessIsUpWithTheMemoryStore() {
        Observed.assertReady("memory");
    }

    @Test
    void callsAndStoreCallsOfTheMemoryStoreAreCounted() {
        String address = Observed.freshAddress();
        PrometheusText before = Observed.metrics();
        List<Integer> statuses = List.of(given().header("X-Forwarded-For", address).get("/lts/counted").statusCode(),
                given().header("X-Forwarded-For", address).get("/lts/counted").statusCode(),
                given().header("X-Forwarded-For", address).get("/lts/counted").statusCode());
        assertEquals(List.of(200, 200, 429), statuses);
        PrometheusText after = Observed.metrics();
        Map<String, String> allowed = Observed.calls("lts-counted", "allowed");
        Map<String, String> denied = Observed.calls("lts-counted", "denied");
        assertEquals(2.0, after.required(Observed.CALLS, allowed) - before.value(Observed.CALLS, allowed));
        assertEquals(1.0, after.required(Observed.CALLS, denied) - before.value(Observed.CALLS, denied));
        Map<String, String> success = Observed.storeCalls("memory", "success");
        assertTrue(after.required(Observed.STORE_CALLS_COUNT, success) - before.value(Observed.STORE_CALLS_COUNT, success) >= 2);
    }
}
