package it.throttle.servlet;

import io.restassured.path.json.JsonPath;
import it.throttle.scenarios.AdminChangesScenarios;
import it.throttle.scenarios.AdminScenarios;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.MetricsAndHealthScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.ServerProcess;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenarios with no Redis configured: the embedded store. The admin API is on, its users in the server's
 * security, and its scenarios run on the same server: they change only the buckets no other scenario calls.
 */
class EmbeddedStoreIT extends ServletSuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, MetricsAndHealthScenarios, ServletScenarios {

    private static ServerProcess server;

    @BeforeAll
    static void start() {
        server = RUNTIME.start("embedded", Map.of("THROTTLE_ADMIN_ENABLED", "true"), ServletRuntime.ADMIN_USERS);
    }

    @AfterAll
    static void stop() {
        stop(server, null);
    }

    @Override
    public ServerProcess server() {
        return server;
    }

    @Override
    public String storeKind() {
        return "memory";
    }

    @Override
    public String expectedStore() {
        return "embedded in-memory store";
    }

    /** Assignments, roles and bad parameters over the admin API. */
    @Nested
    class AdminApi extends AdminScenarios {

        @Override
        protected int port() {
            return server.port();
        }

        @Test
        public void theOpenApiDocumentLeavesItOutAndShowsThe403OfThrottledOperations() {
            JsonPath doc = ServletScenarios.openApi(EmbeddedStoreIT.this);
            assertFalse(doc.getMap("paths").keySet().stream().anyMatch(p -> String.valueOf(p).contains("throttle-admin")),
                    String.valueOf(doc.getMap("paths").keySet()));
            assertTrue(doc.getMap("paths.'/it/admin-target'.get.responses").containsKey("403"));
        }
    }

    /** Overrides, usage, reset and top denied over the admin API. */
    @Nested
    class AdminChanges extends AdminChangesScenarios {

        @Override
        protected int port() {
            return server.port();
        }
    }
}
