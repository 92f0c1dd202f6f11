package it.throttle.wildfly;

import io.restassured.path.json.JsonPath;
import it.throttle.scenarios.Client;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.RawHttp;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What only WildFly shows: the status line on the wire, the start-up line, the plans in the Micrometer
 * subsystem's registry and the OpenAPI document. Implemented by each WildFly suite, beside the shared scenario
 * sets.
 */
interface WildFlyScenarios extends Client {

    /** The server of the run; started once per test class. */
    WildFly server();

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

    /** The library's start-up line in the server log names the store of the run and the Micrometer registry it found. */
    @Test
    default void theStartUpLineNamesTheStoreAndMicrometer() {
        String line = server().startUpLine();
        assertTrue(line.contains("counting in the " + expectedStore()) && line.endsWith(", metrics: micrometer"), line);
    }

    @Test
    default void callsAreCountedUnderThePlanWhoseLimitsApplied() {
        PlanScenarios.callsAreCountedByPlan(this, observed());
    }

    /** WildFly builds the document once, at deployment: Throttle's filter runs then, outside any request. */
    @Test
    default void theOpenApiDocumentShowsThe429OfThrottledOperationsOnly() {
        JsonPath doc = me().accept("application/json").get("/openapi?format=JSON").then().statusCode(200).extract().jsonPath();
        String limited = "paths.'/it/override/limited'.get.responses";
        assertEquals("#/components/schemas/ThrottleProblem",
                doc.getString(limited + ".'429'.content.'application/problem+json'.schema.$ref"));
        assertTrue(doc.getString(limited + ".'429'.description").contains("RateLimit-Policy: \"1h\";q=2;w=3600"),
                doc.getString(limited + ".'429'.description"));
        assertEquals("#/components/headers/Retry-After", doc.getString(limited + ".'429'.headers.Retry-After.$ref"));
        // a path parameter with a regular expression, and a class-level @Throttle
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
        PlanScenarios.blockedCallersAreDocumented(doc);
    }
}
