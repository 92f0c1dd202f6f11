package it.throttle.liberty;

import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/** The scenarios on Open Liberty with no Redis configured: the embedded in-memory store. */
class EmbeddedStoreIT extends LibertySuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, LibertyScenarios {

    private static LibertyServer server;

    @BeforeAll
    static void start() {
        server = LibertyServer.start("embedded", LibertyServer.port("it.http.port.embedded"), Map.of());
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
}
