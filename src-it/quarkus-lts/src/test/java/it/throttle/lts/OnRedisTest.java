package it.throttle.lts;

import io.github.throttle.testing.RedisProcess;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import it.throttle.quarkus.RedisResource;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.CountsInRedis;
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
import java.util.Set;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenarios on the Quarkus LTS line, counting in a real Redis; and what an operator sees there: the calls
 * in {@code /q/metrics} (Micrometer chosen by {@code auto}, though OpenTelemetry is present too) and the
 * readiness check.
 */
@QuarkusTest
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class OnRedisTest extends QuarkusClient
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, UnmappedExceptionScenarios, CountsInRedis {

    @Test
    void callsAreCountedUnderThePlanWhoseLimitsApplied() {
        PlanScenarios.callsAreCountedByPlan(this, Observability.quarkus(RestAssured.port));
    }

    private static List<Integer> threeCalls(String path, String address) {
        return List.of(given().header("X-Forwarded-For", address).get(path).statusCode(),
                given().header("X-Forwarded-For", address).get(path).statusCode(),
                given().header("X-Forwarded-For", address).get(path).statusCode());
    }

    @Test
    void eachCallIsCountedByBucketPlanAndResult() {
        String named = "lts-counted";
        String unnamed = "it.throttle.lts.ObservedResource#unnamed";
        PrometheusText before = Observed.metrics();

        assertEquals(List.of(200, 200, 429), threeCalls("/lts/counted", Observed.freshAddress()));
        assertEquals(List.of(200, 200, 429), threeCalls("/lts/unnamed", Observed.freshAddress()));

        PrometheusText after = Observed.metrics();
        for (String bucket : List.of(named, unnamed)) {
            Map<String, String> allowed = Observed.calls(bucket, "allowed");
            Map<String, String> denied = Observed.calls(bucket, "denied");
            assertEquals(2.0, after.required(Observed.CALLS, allowed) - before.value(Observed.CALLS, allowed), bucket);
            assertEquals(1.0, after.required(Observed.CALLS, denied) - before.value(Observed.CALLS, denied), bucket);
            assertEquals(0.0, after.value(Observed.CALLS, Observed.calls(bucket, "would-deny")), bucket);
        }
        // nothing else was counted for these buckets (a target's series may be made at start-up, at 0)
        for (PrometheusText.Sample s : after.named(Observed.CALLS)) {
            String bucket = s.labels().get("bucket");
            if ((named.equals(bucket) || unnamed.equals(bucket)) && !Set.of("allowed", "denied").contains(s.labels().get("result"))) {
                assertEquals(0.0, s.value(), s.toString());
            }
        }
    }

    @Test
    void aReportModeTargetsExtraCallsAreCountedAsWouldDeny() {
        String address = Observed.freshAddress();
        PrometheusText before = Observed.metrics();
        for (int i = 0; i < 3; i++) {
            given().header("X-Forwarded-For", address).get("/lts/reported").then().statusCode(200)
                    .body(equalTo("reported")).header("RateLimit", nullValue()).header("RateLimit-Policy", nullValue())
                    .header("Retry-After", nullValue());
        }
        PrometheusText after = Observed.metrics();
        Map<String, String> allowed = Observed.calls("lts-reported", "allowed");
        Map<String, String> wouldDeny = Observed.calls("lts-reported", "would-deny");
        Map<String, String> denied = Observed.calls("lts-reported", "denied");
        assertEquals(1.0, after.required(Observed.CALLS, allowed) - before.value(Observed.CALLS, allowed));
        assertEquals(2.0, after.required(Observed.CALLS, wouldDeny) - before.value(Observed.CALLS, wouldDeny));
        assertEquals(before.value(Observed.CALLS, denied), after.value(Observed.CALLS, denied), "report mode denies nothing");
    }

    @Test
    void storeCallsAreTimedByStoreAndOutcome() {
        given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200);
        PrometheusText before = Observed.metrics();
        for (int i = 0; i < 3; i++) {
            given().header("X-Forwarded-For", Observed.freshAddress()).get("/lts/guarded").then().statusCode(200);
        }
        PrometheusText after = Observed.metrics();
        Map<String, String> success = Observed.storeCalls("redis", "success");
        assertTrue(after.required(Observed.STORE_CALLS_COUNT, success) - before.required(Observed.STORE_CALLS_COUNT, success) >= 3,
                "each allowed call asked Redis once");
        assertTrue(after.required(Observed.STORE_CALLS_SUM, success) > 0);
        for (String outcome : List.of("failure", "timeout")) {
            assertEquals(0.0, after.required(Observed.STORE_CALLS_COUNT, Observed.storeCalls("redis", outcome)), outcome);
        }
        assertTrue(after.named(Observed.STORE_CALLS_COUNT).stream().allMatch(s -> s.labels().keySet().equals(Set.of("store", "outcome"))
                && s.labels().get("store").equals("redis")), after.named(Observed.STORE_CALLS_COUNT).toString());
    }

    @Test
    void readinessIsUpWithRedisReachable() {
        Observed.assertReady("redis");
    }

    @Override
    public RedisProcess redis() {
        return RedisResource.redis;
    }
}
