package it.throttle.payara;

import it.throttle.scenarios.AdminChangesScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Overrides, usage, reset and top denied over the admin API on Payara Micro. */
class AdminChangesIT extends AdminChangesScenarios {

    private static PayaraMicro payara;

    @BeforeAll
    static void start() {
        payara = AdminApiIT.startWithAdminApi("admin-changes");
    }

    @AfterAll
    static void stop() {
        PayaraMicro.stop(payara, null);
    }

    @Override
    protected int port() {
        return payara.port();
    }
}
