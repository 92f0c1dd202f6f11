package it.throttle.liberty;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.RawHttp;
import it.throttle.scenarios.ThrottleScenarios;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared scenarios plus what is particular to Open Liberty, against one running server. */
abstract class LibertySuite extends ThrottleScenarios {

    protected abstract LibertyServer server();

    @Override
    protected String baseUri() {
        return "http://127.0.0.1";
    }

    @Override
    protected int port() {
        return server().port();
    }

    /**
     * Liberty's HTTP channel knows no reason phrase for 429 and writes {@code Undefined}, whatever the
     * application asks for ({@code Response.status(429, "Too Many Requests")}; Servlet 6 has no API for a
     * reason phrase at all). HTTP/1.1 clients must ignore the reason phrase (RFC 9112, 4): what counts is the
     * code, the fields and the problem body, asserted by the shared scenarios. This pins what the pinned
     * runtime does, so that a change shows up here and in docs/runtime-liberty.md.
     */
    @Test
    public void a429StatusLineHasLibertysReasonPhrase() throws IOException {
        String client = "198.51.100." + (1 + ThreadLocalRandom.current().nextInt(254));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            lines.add(RawHttp.statusLine(port(), "/it/by-address", client));
        }
        assertEquals(List.of("HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 429 Undefined"), lines);
    }

    /** Throttle's start-up line names the store from the configuration and the metrics backend it found. */
    @Test
    public void theStartUpLineNamesTheStoreAndTheMetricsBackend() {
        String line = server().startUpLine();
        assertTrue(line.contains("counting in the " + expectedStore()) && line.endsWith(", metrics: " + expectedMetrics()), line);
    }

    /** {@code throttle.metrics} as Throttle chose it at start-up: none on the plain server, which has no metrics API. */
    protected String expectedMetrics() {
        return "none";
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

    /** How Throttle's start-up message names the store this run must use. */
    protected abstract String expectedStore();
}
