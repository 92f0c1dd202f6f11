package it.throttle.servlet;

import io.restassured.path.json.JsonPath;
import it.throttle.scenarios.Client;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.RawHttp;
import it.throttle.scenarios.ServerProcess;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a servlet runtime shows of itself: the status line on the wire, the start-up line, the plans in its
 * metrics and its OpenAPI document. Implemented by each suite of this directory, beside the shared scenario sets.
 */
interface ServletScenarios extends Client {

    /** The server of the run; started once per test class. */
    ServerProcess server();

    /** How the library names the store of this run in its start-up line. */
    String expectedStore();

    /** The server's metrics and health endpoints. */
    Observability observed();

    @Test
    default void theStatusLineOfA429SaysTooManyRequests() {
        String client = "198.51.100." + ThreadLocalRandom.current().nextInt(1, 255);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            lines.add(RawHttp.statusLine(port(), "/it/fixed", client));
        }
        assertEquals("HTTP/1.1 200 OK", lines.get(0), lines.toString());
        assertEquals("HTTP/1.1 429 Too Many Requests", lines.get(3), lines.toString());
    }

    @Test
    default void theStatusLineOfA429FromABeanSaysTooManyRequests() {
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

    /** The library's start-up line in the server log names the store of the run and the metrics it publishes to. */
    @Test
    default void theStartUpLineNamesTheStoreAndTheMetrics() {
        String line = server().startUpLine();
        assertTrue(line.contains("counting in the " + expectedStore()) && line.endsWith(", metrics: " + ServletSuite.RUNTIME.metrics()), line);
    }

    @Test
    default void callsAreCountedUnderThePlanWhoseLimitsApplied() {
        PlanScenarios.callsAreCountedByPlan(this, observed());
    }

    @Test
    default void theOpenApiDocumentShowsThe429OfThrottledOperationsOnly() {
        JsonPath doc = openApi(this);
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
        // limits a resource class inherits from an interface method or an overridden superclass method, each named
        // after the class that serves it (its own configuration keys: q=3)
        assertTrue(doc.getString("paths.'/it/iface/x'.get.responses.'429'.description").contains("q=2;w=3600"));
        assertTrue(doc.getString("paths.'/it/iface-other/x'.get.responses.'429'.description").contains("q=3;w=3600"));
        assertTrue(doc.getMap("paths.'/it/sub/y'.get.responses").containsKey("429"));
        // unthrottled, switched off, report mode: untouched
        for (String path : List.of("/it/open", "/it/override/off", "/it/override/reported")) {
            assertFalse(doc.getMap("paths.'" + path + "'.get.responses").containsKey("429"), path);
        }
        assertEquals("object", doc.getString("components.schemas.ThrottleProblem.type"));
        assertTrue(doc.getMap("components.schemas.ThrottleProblem.properties").containsKey("violated-policies"));
        assertTrue(doc.getMap("components.headers").keySet().containsAll(List.of("Retry-After", "RateLimit", "RateLimit-Policy")));
        PlanScenarios.blockedCallersAreDocumented(doc);
    }

    /** The server's OpenAPI document, in JSON. */
    static JsonPath openApi(Client client) {
        return client.me().accept("application/json").get(ServletSuite.RUNTIME.openApiJson()).then().statusCode(200)
                .extract().jsonPath();
    }
}
