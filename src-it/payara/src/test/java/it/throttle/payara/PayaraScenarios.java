package it.throttle.payara;

import it.throttle.scenarios.Observability;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import it.throttle.scenarios.RawHttp;
import it.throttle.scenarios.ThrottleScenarios;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared scenarios against one Payara Micro process, plus what only the wire shows on Payara. */
abstract class PayaraScenarios extends ThrottleScenarios {

    /** The server of the run; started once per test class. */
    protected abstract PayaraMicro payara();

    @Override
    protected String baseUri() {
        return "http://127.0.0.1";
    }

    @Override
    protected int port() {
        return payara().port();
    }

    @Test
    public void theStatusLineOfA429SaysTooManyRequests() {
        String client = "198.51.100." + (1 + (int) (Math.random() * 250));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            lines.add(RawHttp.statusLine(port(), "/it/fixed", client));
        }
        assertEquals("HTTP/1.1 200 OK", lines.get(0), lines.toString());
        assertEquals("HTTP/1.1 429 Too Many Requests", lines.get(3), lines.toString());
    }

    @Test
    public void theStatusLineOfA429FromABeanSaysTooManyRequests() {
        // the bean's quota is global (2 per hour): at most three calls reach a denial
        String last = null;
        for (int i = 0; i < 3; i++) {
            last = RawHttp.statusLine(port(), "/it/service", "198.51.100.7");
            if (!last.contains(" 200 ")) {
                break;
            }
        }
        assertEquals("HTTP/1.1 429 Too Many Requests", last);
    }

    /** How the library names the store of this run in its start-up line. */
    protected abstract String expectedStore();

    /** The store's kind: the readiness check's {@code store} and the store timer's {@code store} tag. */
    protected abstract String storeKind();

    protected Observability observed() {
        return new Observability(port());
    }

    // Payara Micro 6 bundles MicroProfile Metrics 5 and Health: Throttle publishes through them with no configuration

    /** The library's start-up line in the server log names the store of the run and the metrics it publishes to. */
    @Test
    public void theStartUpLineNamesTheStoreAndMicroProfileMetrics() {
        String line = payara().startUpLine();
        assertTrue(line.contains("counting in the " + expectedStore()) && line.endsWith(", metrics: mp-metrics"), line);
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
        double before = observed().storeCalls(storeKind(), "success");
        me().get("/it/fixed").then().statusCode(200);
        double after = observed().storeCalls(storeKind(), "success");
        assertTrue(after >= before + 1, "store calls with outcome success: " + before + " then " + after);
    }

    @Test
    public void theReadinessCheckIsUpAndNamesItsStore() {
        Response r = observed().readiness();
        r.then().statusCode(200).contentType(containsString("application/json"));
        Map<String, Object> check = Observability.throttleCheck(r);
        assertEquals("UP", check.get("status"), r.asString());
        assertEquals(storeKind(), Observability.data(check, "store"), r.asString());
        assertEquals("true", Observability.data(check, "reachable"), r.asString());
        assertEquals("UP", r.jsonPath().getString("status"), r.asString());
    }

    @Test
    public void throttleIsNoLivenessCheck() {
        Response r = observed().liveness();
        r.then().statusCode(200);
        assertEquals(Map.of(), Observability.throttleCheck(r), r.asString());
    }


    @Test
    public void theOpenApiDocumentShowsThe429OfThrottledOperationsOnly() {
        JsonPath doc = me().accept("application/json").get("/openapi").then().statusCode(200).extract().jsonPath();
        String limited = "paths.'/it/override/limited'.get.responses";
        assertEquals("#/components/schemas/ThrottleProblem",
                doc.getString(limited + ".'429'.content.'application/problem+json'.schema.$ref"));
        assertTrue(doc.getString(limited + ".'429'.description").contains("RateLimit-Policy: \"1h\";q=2;w=3600"),
                doc.getString(limited + ".'429'.description"));
        assertEquals("#/components/headers/Retry-After", doc.getString(limited + ".'429'.headers.Retry-After.$ref"));
        // a path parameter with a regular expression, and a class-level @Throttle
        // Payara keeps the expression in the path ('/it/items/{id: [0-9]+}'); others write '/it/items/{id}'
        String item = doc.getMap("paths").keySet().stream().map(String::valueOf).filter(k -> k.startsWith("/it/items/{id"))
                .findFirst().orElseThrow(() -> new AssertionError("no /it/items/{id} in " + doc.getMap("paths").keySet()));
        assertTrue(doc.getMap("paths.'" + item + "'.get.responses").containsKey("429"), item);
        assertTrue(doc.getMap("paths.'/it/class/one'.get.responses").containsKey("429"));
        // unthrottled, switched off, report mode: untouched
        for (String path : List.of("/it/open", "/it/override/off", "/it/override/reported")) {
            assertFalse(doc.getMap("paths.'" + path + "'.get.responses").containsKey("429"), path);
        }
        assertEquals("object", doc.getString("components.schemas.ThrottleProblem.type"));
        assertTrue(doc.getMap("components.schemas.ThrottleProblem.properties").containsKey("violated-policies"));
        assertTrue(doc.getMap("components.headers").keySet().containsAll(List.of("Retry-After", "RateLimit", "RateLimit-Policy")));
        blockedCallersAreDocumented(doc);
    }
}
