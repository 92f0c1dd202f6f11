package it.throttle.servlet;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.ScenarioClient;
import it.throttle.scenarios.ServerProcess;

/** A client of one server of this run's {@link ServletRuntime}, started once per test class by the suite. */
abstract class ServletSuite extends ScenarioClient {

    static final ServletRuntime RUNTIME = ServletRuntime.current();

    /** The server of the class. */
    public abstract ServerProcess server();

    @Override
    public int port() {
        return server().port();
    }

    public Observability observed() {
        return RUNTIME.observed(server());
    }

    /** Stops the server, then the Redis it counted in; each only if it was started. */
    static void stop(ServerProcess server, RedisProcess redis) {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }
}
