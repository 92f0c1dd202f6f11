package it.throttle.liberty;

import io.github.throttle.testing.RedisProcess;
import io.restassured.path.json.JsonPath;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.MetricsAndHealthScenarios;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.OnRedisAllowing;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenarios on Open Liberty with MicroProfile Metrics 5.1 and Health 4.0 added to the server, counting in
 * a real redis-server ({@code throttle.on-store-failure} left at {@code allow}): the counter
 * {@code throttle.calls} and the store timer at {@code /metrics}, the readiness check {@code throttle} at
 * {@code /health/ready}, and what both show while Redis is dead.
 */
class ObservedOnRedisIT extends LibertySuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, LibertyScenarios,
        MetricsAndHealthScenarios, OnRedisAllowing {

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
        // killing Redis makes Throttle and Lettuce say so
        stop(server, redis, StoreFailures::expected);
    }

    @Override
    public String expectedStore() {
        return "Redis at " + redis.uri() + "/0";
    }

    @Override
    public String expectedMetrics() {
        return "mp-metrics";
    }

    @Override
    public LibertyServer server() {
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
        PlanScenarios.blockedCallersAreDocumented(doc);
    }

    @Test
    public void callsAreCountedUnderThePlanWhoseLimitsApplied() {
        PlanScenarios.callsAreCountedByPlan(this, observed());
    }

    @Override
    public Observability observed() {
        return new Observability(port());
    }

    @Override
    public String storeKind() {
        return "redis";
    }

    @Override
    public RedisProcess redis() {
        return redis;
    }
}
