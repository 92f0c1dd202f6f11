package it.throttle.liberty;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.ScenarioClient;

import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A client of one running Open Liberty server, and how a suite stops it; the scenarios are in the sets each
 * suite implements ({@link LibertyScenarios} for what is particular to Open Liberty).
 */
abstract class LibertySuite extends ScenarioClient {

    /** The server of the run; started once per test class. */
    public abstract LibertyServer server();

    @Override
    public int port() {
        return server().port();
    }

    /**
     * Stops the server after checking that the whole run logged no error or warning (no bean discovery,
     * provider, Weld or request trouble).
     */
    static void stop(LibertyServer server) {
        stop(server, line -> false);
    }

    /** {@link #stop(LibertyServer, Predicate)}, then the Redis the server counted in (if started). */
    static void stop(LibertyServer server, RedisProcess redis, Predicate<String> expected) {
        try {
            stop(server, expected);
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    /** {@link #stop(LibertyServer)}, where the run expects the error or warning lines that {@code expected} accepts. */
    static void stop(LibertyServer server, Predicate<String> expected) {
        if (server == null) {
            return;
        }
        List<String> problems;
        try {
            problems = server.problems().stream().filter(expected.negate()).toList();
        } finally {
            server.close();
        }
        assertEquals(List.of(), problems, "errors or warnings in messages.log");
    }
}
