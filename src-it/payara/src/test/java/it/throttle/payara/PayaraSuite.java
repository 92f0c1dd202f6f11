package it.throttle.payara;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.ScenarioClient;

/** A client of one Payara Micro process, started once per test class by the suite. */
abstract class PayaraSuite extends ScenarioClient {

    /** The server of the run. */
    public abstract PayaraMicro payara();

    @Override
    public int port() {
        return payara().port();
    }

    /** Payara Micro 6 and 7 bundle MicroProfile Metrics 5 and Health: Throttle publishes through them with no configuration. */
    public Observability observed() {
        return new Observability(port());
    }
}
