package it.throttle.liberty;

import it.throttle.scenarios.AdminChangesScenarios;
import it.throttle.scenarios.AdminScenarios;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

import java.util.Map;

/**
 * The scenarios on Open Liberty with no Redis configured: the embedded in-memory store. The admin API is on,
 * with basic auth against a basic registry and the role bound in server.xml, and its scenarios run on the same
 * server: they change only the buckets no other scenario calls.
 */
class EmbeddedStoreIT extends LibertySuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, LibertyScenarios {

    private static LibertyServer server;

    @BeforeAll
    static void start() {
        server = LibertyServer.start("embedded", LibertyServer.port("it.http.port.embedded"), Map.of("THROTTLE_ADMIN_ENABLED", "true"),
                "/liberty/admin-security.xml");
    }

    @AfterAll
    static void stop() {
        stop(server);
    }

    @Override
    public String expectedStore() {
        return "embedded in-memory store";
    }

    @Override
    public LibertyServer server() {
        return server;
    }

    /** Assignments, roles and bad parameters over the admin API. */
    @Nested
    class AdminApi extends AdminScenarios {

        @Override
        protected int port() {
            return server.port();
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
