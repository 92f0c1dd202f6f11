package it.throttle.scenarios;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a server with MicroProfile Metrics and Health publishes about Throttle: {@code throttle_calls_total} by
 * bucket and result, the store timer, and the readiness check {@code throttle} (never a liveness check).
 * Implemented by each runtime's suite whose server has both.
 */
public interface MetricsAndHealthScenarios {

    /** The server's metrics and health endpoints. */
    Observability observed();

    /** The store's kind: the readiness check's {@code store} and the store timer's {@code store} tag. */
    String storeKind();

    /** Requests of a client of its own (a random address, sent through the trusted loopback proxy). */
    private RequestSpecification newClient() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String address = "10." + r.nextInt(1, 255) + "." + r.nextInt(1, 255) + "." + r.nextInt(1, 255);
        return RestAssured.given().baseUri("http://127.0.0.1").port(observed().port()).header("X-Forwarded-For", address);
    }

    @Test
    default void callsAreCountedInMetricsByBucketAndResult() {
        // limit 2 per hour (overridden by configuration)
        String bucket = "it.throttle.app.OverrideResource#limited";
        Map<String, Double> before = observed().calls(bucket);
        RequestSpecification me = newClient();
        me.get("/it/override/limited").then().statusCode(200);
        me.get("/it/override/limited").then().statusCode(200);
        me.get("/it/override/limited").then().statusCode(429);
        assertEquals(Map.of("allowed", 2.0, "denied", 1.0), Observability.changes(before, observed().calls(bucket)));
    }

    @Test
    default void aNamedBucketIsCountedUnderItsName() {
        // two resources sharing the bucket "shared", 3 per hour
        Map<String, Double> before = observed().calls("shared");
        RequestSpecification me = newClient();
        me.get("/it/shared-a").then().statusCode(200);
        me.get("/it/shared-b").then().statusCode(200);
        me.get("/it/shared-a").then().statusCode(200);
        me.get("/it/shared-b").then().statusCode(429);
        assertEquals(Map.of("allowed", 3.0, "denied", 1.0), Observability.changes(before, observed().calls("shared")));
    }

    @Test
    default void callsThatEnforceModeWouldRefuseAreCountedAsWouldDeny() {
        // report mode, 1 per hour: each call after the first would have been refused
        String bucket = "it.throttle.app.OverrideResource#reported";
        Map<String, Double> before = observed().calls(bucket);
        RequestSpecification me = newClient();
        for (int i = 0; i < 3; i++) {
            me.get("/it/override/reported").then().statusCode(200);
        }
        assertEquals(Map.of("allowed", 1.0, "would-deny", 2.0), Observability.changes(before, observed().calls(bucket)));
    }

    @Test
    default void aBeanInReportModeCountsWouldDeny() {
        // one global quota of 1 per hour for the whole run: at most the first call of the run is allowed
        String bucket = "it.throttle.app.LimitedService#reported";
        Map<String, Double> before = observed().calls(bucket);
        RequestSpecification me = newClient();
        for (int i = 0; i < 3; i++) {
            me.get("/it/service/reported").then().statusCode(200);
        }
        Map<String, Double> changes = Observability.changes(before, observed().calls(bucket));
        double wouldDeny = changes.getOrDefault("would-deny", 0.0);
        assertTrue(changes.keySet().stream().allMatch(r -> r.equals("allowed") || r.equals("would-deny"))
                && wouldDeny >= 2 && wouldDeny + changes.getOrDefault("allowed", 0.0) == 3, changes.toString());
    }

    @Test
    default void storeCallsAreTimed() {
        double before = observed().storeCalls(storeKind(), "success");
        newClient().get("/it/fixed").then().statusCode(200);
        double after = observed().storeCalls(storeKind(), "success");
        assertTrue(after >= before + 1, "store calls with outcome success: " + before + " then " + after);
    }

    @Test
    default void theReadinessCheckIsUpAndNamesItsStore() {
        Response r = observed().readiness();
        r.then().statusCode(200).contentType(containsString("application/json"));
        Map<String, Object> check = Observability.throttleCheck(r);
        assertEquals("UP", check.get("status"), r.asString());
        assertEquals(storeKind(), Observability.data(check, "store"), r.asString());
        assertEquals("true", Observability.data(check, "reachable"), r.asString());
        assertEquals("UP", r.jsonPath().getString("status"), r.asString());
    }

    @Test
    default void throttleIsNoLivenessCheck() {
        Response r = observed().liveness();
        r.then().statusCode(200);
        assertEquals(Map.of(), Observability.throttleCheck(r), r.asString());
    }
}
