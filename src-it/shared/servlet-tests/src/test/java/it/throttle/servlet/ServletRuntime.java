package it.throttle.servlet;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.ServerProcess;

import java.util.Map;

/**
 * What a servlet runtime's suite says of its server: how to start it serving the application WAR, where its
 * metrics and health are, and what it writes of itself. The scenario classes of this directory run on every
 * runtime that implements it (the build names the class in the system property {@code it.runtime}).
 */
public interface ServletRuntime {

    /** The users of the admin API, name to password: the operator holds the role {@code throttle-admin}. */
    Map<String, String> ADMIN_USERS = Map.of(
            it.throttle.scenarios.AdminClient.OPERATOR, it.throttle.scenarios.AdminClient.OPERATOR_PASSWORD,
            it.throttle.scenarios.AdminClient.READER, it.throttle.scenarios.AdminClient.READER_PASSWORD);

    /**
     * Starts a server named {@code name} (its directory and logs in target/) with {@code env} added to (or, for
     * a null value, removed from) its environment; with {@code adminUsers}, the server's security knows them,
     * the operator in the role {@code throttle-admin}.
     */
    ServerProcess start(String name, Map<String, String> env, Map<String, String> adminUsers);

    /** The server's metrics and health endpoints. */
    Observability observed(ServerProcess server);

    /** How Throttle's start-up line names the metrics it found ({@code throttle.metrics}). */
    String metrics();

    /** The path of the OpenAPI document in JSON. */
    String openApiJson();

    /** The runtime of this run: the class the build names in {@code it.runtime}, made once. */
    static ServletRuntime current() {
        return Current.RUNTIME;
    }

    /** Holds the runtime, made on first use. */
    final class Current {
        private static final ServletRuntime RUNTIME = make();

        private Current() {
        }

        private static ServletRuntime make() {
            String name = ServerProcess.required("it.runtime");
            try {
                return (ServletRuntime) Class.forName(name).getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot make the runtime " + name, e);
            }
        }
    }
}
