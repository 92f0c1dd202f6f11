package it.throttle.lts;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import it.throttle.scenarios.AdminScenarios;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin API on Quarkus REST, its callers known to Quarkus security (users in application.properties,
 * basic auth). No path is constrained, so each refusal is the admin API's own problem body.
 */
@QuarkusTest
@TestProfile(Profiles.AdminApiAndOtelMetrics.class)
class AdminApiTest extends AdminScenarios {

    @Test
    void itsOwnRefusalsAreProblemBodies() {
        anonymous().get("/throttle-admin/assignments").then().statusCode(401)
                .contentType(containsString("application/problem+json")).body("title", equalTo("Unauthorized"));
        reader().get("/throttle-admin/assignments").then().statusCode(403)
                .contentType(containsString("application/problem+json")).body("detail", containsString("throttle-admin"));
    }

    @Test
    void theOpenApiDocumentLeavesItOutAndShowsThe403OfThrottledOperations() {
        JsonPath doc = RestAssured.given().accept("application/json").get("/q/openapi?format=json")
                .then().statusCode(200).extract().jsonPath();
        assertFalse(doc.getMap("paths").keySet().stream().anyMatch(p -> String.valueOf(p).contains("throttle-admin")), doc.getMap("paths").keySet().toString());
        assertTrue(doc.getMap("paths.'/it/admin-target'.get.responses").containsKey("403"));
    }
}
