package it.throttle.lts;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import it.throttle.scenarios.PlanScenarios;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With quarkus-smallrye-openapi and no configuration at all, {@code /q/openapi} shows the 429 of every
 * throttled operation, its body and headers defined once under components, and leaves the others alone.
 */
@QuarkusTest
@TestProfile(Profiles.EmbeddedStore.class)
class OpenApiTest {

    private static JsonPath document() {
        return RestAssured.given().accept("application/json").get("/q/openapi?format=json")
                .then().statusCode(200).extract().jsonPath();
    }

    @Test
    void throttledOperationsDocumentThe429WithTheirOwnPolicy() {
        JsonPath doc = document();
        String limited = "paths.'/it/override/limited'.get.responses.'429'";
        assertEquals("#/components/schemas/ThrottleProblem", doc.getString(limited + ".content.'application/problem+json'.schema.$ref"));
        assertTrue(doc.getString(limited + ".description").contains("RateLimit-Policy: \"1h\";q=2;w=3600"), doc.getString(limited + ".description"));
        assertEquals("#/components/headers/RateLimit", doc.getString(limited + ".headers.RateLimit.$ref"));
        // a path parameter with a regular expression, and a class-level @Throttle
        Map<String, Object> item = doc.getMap("paths.'/it/items/{id}'.get.responses");
        assertTrue(item != null && item.containsKey("429"), "paths: " + doc.getMap("paths").keySet());
        assertTrue(doc.getMap("paths.'/it/class/one'.get.responses").containsKey("429"));
    }

    @Test
    void unthrottledSwitchedOffAndReportModeOperationsAreLeftAlone() {
        JsonPath doc = document();
        for (String path : List.of("/it/open", "/it/override/off", "/it/override/reported")) {
            assertFalse(doc.getMap("paths.'" + path + "'.get.responses").containsKey("429"), path);
        }
        assertFalse(doc.getMap("paths.'/it/override/limited'.get.responses").containsKey("503"), "503 only with on-store-failure=deny");
    }

    @Test
    void withAPlanBeanThrottledOperationsDocumentThe403() {
        PlanScenarios.blockedCallersAreDocumented(document());
    }

    @Test
    void theProblemBodyAndTheHeadersAreDefinedOnce() {
        JsonPath doc = document();
        assertTrue(doc.getMap("components.schemas.ThrottleProblem.properties").keySet()
                .containsAll(List.of("type", "title", "status", "detail", "violated-policies")));
        assertTrue(doc.getMap("components.headers").keySet().containsAll(List.of("Retry-After", "RateLimit", "RateLimit-Policy")));
    }
}
