package it.throttle.wildfly;

import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.MetricsAndHealthScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.HashMap;
import java.util.Map;

/** The scenarios on WildFly with no Redis configured: the embedded store. */
class EmbeddedStoreIT extends WildFlySuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, MetricsAndHealthScenarios, WildFlyScenarios {

    private static WildFly server;

    @BeforeAll
    static void start() {
        Map<String, String> env = new HashMap<>();
        // whatever the build's own environment holds, this run has no Redis
        env.put("THROTTLE_REDIS_URI", null);
        server = WildFly.start("embedded", env);
    }

    @AfterAll
    static void stop() {
        WildFly.stop(server, null);
    }

    @Override
    public WildFly server() {
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
}
