package it.throttle.liberty;

import it.throttle.scenarios.AdminChangesScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Overrides, usage, reset and top denied over the admin API on Open Liberty. */
class AdminChangesIT extends AdminChangesScenarios {

    private static LibertyServer server;

    @BeforeAll
    static void start() {
        server = AdminApiIT.startWithAdminApi("admin-changes");
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
