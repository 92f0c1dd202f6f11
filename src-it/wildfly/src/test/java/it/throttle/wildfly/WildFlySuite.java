package it.throttle.wildfly;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.ScenarioClient;

/** A client of one WildFly process, started once per test class by the suite. */
abstract class WildFlySuite extends ScenarioClient {

    /** The server of the run. */
    public abstract WildFly server();

    @Override
    public int port() {
        return server().port();
    }

    /**
     * The Micrometer subsystem's Prometheus registry and MicroProfile Health, both on the management port:
     * Throttle's meters go to the subsystem's registry with no configuration.
     */
    public Observability observed() {
        return Observability.onManagementPort(port(), server().managementPort(), WildFly.PROMETHEUS);
    }
}
