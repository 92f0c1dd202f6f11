package it.throttle.liberty;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.StoreFailureScenarios;
import it.throttle.scenarios.StoreOutage;
import io.github.throttle.testing.RedisProcess;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenarios on Open Liberty with MicroProfile Metrics 5.1 and Health 4.0 added to the server, counting in
 * a real redis-server ({@code throttle.on-store-failure} left at {@code allow}): the counter
 * {@code throttle.calls} and the store timer at {@code /metrics}, the readiness check {@code throttle} at
 * {@code /health/ready}, and what both show while Redis is dead.
 */
class ObservedOnRedisIT extends LibertySuite implements StoreFailureScenarios {

    private static RedisProcess redis;
    private static LibertyServer server;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        server = LibertyServer.start("observed", LibertyServer.port("it.http.port.observed"),
                Map.of("THROTTLE_REDIS_URI", redis.uri()), "/liberty/metrics-health.xml");
    }

    @AfterAll
    static void stop() {
        try {
            // killing Redis makes Throttle say so, once per outage
            stop(server, StoreFailures::expected);
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Override
    protected String expectedStore() {
        return "Redis at " + redis.uri();
    }

    @Override
    protected String expectedMetrics() {
        return "mp-metrics";
    }

    @Override
    protected LibertyServer server() {
        return server;
    }

    @Test
    public void theOpenApiDocumentShowsThe429OfThrottledOperationsOnly() {
        JsonPath doc = me().accept("application/json").get("/openapi?format=JSON").then().statusCode(200).extract().jsonPath();
        String limited = "paths.'/it/override/limited'.get.responses.'429'";
        assertEquals("#/components/schemas/ThrottleProblem", doc.getString(limited + ".content.'application/problem+json'.schema.$ref"));
        assertTrue(doc.getString(limited + ".description").contains("RateLimit-Policy: \"1h\";q=2;w=3600"),
                doc.getString(limited + ".description"));
        String item = doc.getMap("paths").keySet().stream().map(String::valueOf).filter(k -> k.startsWith("/it/items/{id"))
                .findFirst().orElseThrow(() -> new AssertionError("no /it/items/{id} in " + doc.getMap("paths").keySet()));
        assertTrue(doc.getMap("paths.'" + item + "'.get.responses").containsKey("429"), item);
        assertTrue(doc.getMap("paths.'/it/class/one'.get.responses").containsKey("429"));
        for (String path : java.util.List.of("/it/open", "/it/override/off", "/it/override/reported")) {
            assertFalse(doc.getMap("paths.'" + path + "'.get.responses").containsKey("429"), path);
        }
        assertTrue(doc.getMap("components.headers").keySet().containsAll(java.util.List.of("Retry-After", "RateLimit", "RateLimit-Policy")));
        blockedCallersAreDocumented(doc);
    }

    @Test
    public void callsAreCountedInMetricsByBucketAndResult() {
        // limit 2 per hour (overridden by configuration); a new client
        String bucket = "it.throttle.app.OverrideResource#limited";
        Map<String, Double> before = observed().calls(bucket);
        me().get("/it/override/limited").then().statusCode(200);
        me().get("/it/override/limited").then().statusCode(200);
        me().get("/it/override/limited").then().statusCode(429);
        assertEquals(Map.of("allowed", 2.0, "denied", 1.0), Observability.changes(before, observed().calls(bucket)));
    }

    @Test
    public void callsAreCountedUnderThePlanWhoseLimitsApplied() {
        callsAreCountedByPlan(observed());
    }

    @Test
    public void unlimitedAndBlockedCallsMakeNoRedisCall() {
        unlimitedAndBlockedCallsMakeNoStoreCall(redis.port());
    }

    @Test
    public void aNamedBucketIsCountedUnderItsName() {
        // two resources sharing the bucket "shared", 3 per hour
        Map<String, Double> before = observed().calls("shared");
        me().get("/it/shared-a").then().statusCode(200);
        me().get("/it/shared-b").then().statusCode(200);
        me().get("/it/shared-a").then().statusCode(200);
        me().get("/it/shared-b").then().statusCode(429);
        assertEquals(Map.of("allowed", 3.0, "denied", 1.0), Observability.changes(before, observed().calls("shared")));
    }

    @Test
    public void callsThatEnforceModeWouldRefuseAreCountedAsWouldDeny() {
        // report mode, 1 per hour: each call after the first would have been refused
        String bucket = "it.throttle.app.OverrideResource#reported";
        Map<String, Double> before = observed().calls(bucket);
        for (int i = 0; i < 3; i++) {
            me().get("/it/override/reported").then().statusCode(200);
        }
        assertEquals(Map.of("allowed", 1.0, "would-deny", 2.0), Observability.changes(before, observed().calls(bucket)));
    }

    @Test
    public void aBeanInReportModeCountsWouldDeny() {
        // one global quota of 1 per hour for the whole run: at most the first call of the run is allowed
        String bucket = "it.throttle.app.LimitedService#reported";
        Map<String, Double> before = observed().calls(bucket);
        for (int i = 0; i < 3; i++) {
            me().get("/it/service/reported").then().statusCode(200);
        }
        Map<String, Double> changes = Observability.changes(before, observed().calls(bucket));
        double wouldDeny = changes.getOrDefault("would-deny", 0.0);
        assertTrue(changes.keySet().stream().allMatch(r -> r.equals("allowed") || r.equals("would-deny"))
                && wouldDeny >= 2 && wouldDeny + changes.getOrDefault("allowed", 0.0) == 3, changes.toString());
    }

    @Test
    public void storeCallsAreTimed() {
        double before = observed().storeCalls("redis", "success");
        me().get("/it/fixed").then().statusCode(200);
        double after = observed().storeCalls("redis", "success");
        assertTrue(after >= before + 1, "store calls with outcome success: " + before + " then " + after);
    }

    @Test
    public void theReadinessCheckIsUpAndNamesItsStore() {
        Response r = observed().readiness();
        r.then().statusCode(200).contentType(containsString("application/json"));
        Map<String, Object> check = Observability.throttleCheck(r);
        assertEquals("UP", check.get("status"), r.asString());
        assertEquals("redis", Observability.data(check, "store"), r.asString());
        assertEquals("true", Observability.data(check, "reachable"), r.asString());
        assertEquals("UP", r.jsonPath().getString("status"), r.asString());
    }

    @Test
    public void throttleIsNoLivenessCheck() {
        Response r = observed().liveness();
        r.then().statusCode(200);
        assertEquals(Map.of(), Observability.throttleCheck(r), r.asString());
    }

    private Observability observed() {
        return new Observability(port());
    }

    /** The default {@code throttle.on-store-failure=allow}: while Redis is dead, calls pass uncounted. */
    @Override
    public StoreOutage storeOutage() {
        return new StoreOutage(observed(), port(), redis, false);
    }
}
