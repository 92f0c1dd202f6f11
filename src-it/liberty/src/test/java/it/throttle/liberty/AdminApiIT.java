package it.throttle.liberty;

import it.throttle.scenarios.AdminScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/** The admin API on Open Liberty: basic auth against a basic registry, the role bound in server.xml. */
class AdminApiIT extends AdminScenarios {

    private static LibertyServer server;

    @BeforeAll
    static void start() {
        server = startWithAdminApi("admin");
    }

    /** A server on the embedded store with the admin API on and its users in a basic registry. */
    static LibertyServer startWithAdminApi(String label) {
        return LibertyServer.start(label, LibertyServer.port("it.http.port.admin"), Map.of("THROTTLE_ADMIN_ENABLED", "true"),
                "/liberty/admin-security.xml");
    }

    @AfterAll
    static void stop() {
        LibertySuite.stop(server);
    }

    @Override
    protected int port() {
        return server.port();
    }
}
