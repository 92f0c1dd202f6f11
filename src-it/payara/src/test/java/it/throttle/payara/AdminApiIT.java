package it.throttle.payara;

import io.restassured.path.json.JsonPath;
import it.throttle.scenarios.AdminScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin API on Payara Micro: basic auth (web.xml) against file-realm users made by post-boot commands, the
 * group throttle-admin mapped to the role (payara-web.xml).
 */
class AdminApiIT extends AdminScenarios {

    private static PayaraMicro payara;

    @BeforeAll
    static void start() {
        payara = startWithAdminApi("admin");
    }

    /** A server on the embedded store with the admin API on, and its two users. */
    static PayaraMicro startWithAdminApi(String name) {
        Map<String, String> env = new HashMap<>();
        env.put("THROTTLE_REDIS_URI", null);
        env.put("THROTTLE_ADMIN_ENABLED", "true");
        return PayaraMicro.start(name, env, Map.of(OPERATOR, OPERATOR_PASSWORD, READER, READER_PASSWORD), OPERATOR);
    }

    @AfterAll
    static void stop() {
        PayaraMicro.stop(payara, null);
    }

    @Override
    protected int port() {
        return payara.port();
    }

    @Test
    public void theOpenApiDocumentLeavesItOutAndShowsThe403OfThrottledOperations() {
        JsonPath doc = anonymous().accept("application/json").get("/openapi").then().statusCode(200).extract().jsonPath();
        assertFalse(doc.getMap("paths").keySet().stream().anyMatch(p -> String.valueOf(p).contains("throttle-admin")),
                String.valueOf(doc.getMap("paths").keySet()));
        assertTrue(doc.getMap("paths.'/it/admin-target'.get.responses").containsKey("403"));
    }
}
