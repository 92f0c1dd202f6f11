package it.throttle.liberty;

import it.throttle.scenarios.Client;
import it.throttle.scenarios.RawHttp;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What is particular to Open Liberty: the status line of a 429 and the start-up line. Implemented by each Liberty suite. */
interface LibertyScenarios extends Client {

    /** The server of the run. */
    LibertyServer server();

    /** How Throttle's start-up message names the store this run must use. */
    String expectedStore();

    /**
     * Liberty's HTTP channel knows no reason phrase for 429 and writes {@code Undefined}, whatever the
     * application asks for ({@code Response.status(429, "Too Many Requests")}; Servlet 6 has no API for a
     * reason phrase at all). HTTP/1.1 clients must ignore the reason phrase (RFC 9112, 4): what counts is the
     * code, the fields and the problem body, asserted by the shared scenarios. This pins what the pinned
     * runtime does, so that a change shows up here and in docs/runtime-liberty.md.
     */
    @Test
    default void a429StatusLineHasLibertysReasonPhrase() throws IOException {
        String client = "198.51.100." + (1 + ThreadLocalRandom.current().nextInt(254));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            lines.add(RawHttp.statusLine(port(), "/it/by-address", client));
        }
        assertEquals(List.of("HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 429 Undefined"), lines);
    }

    /** Throttle's start-up line names the store from the configuration and the metrics backend it found. */
    @Test
    default void theStartUpLineNamesTheStoreAndTheMetricsBackend() {
        String line = server().startUpLine();
        assertTrue(line.contains("counting in the " + expectedStore()) && line.endsWith(", metrics: " + expectedMetrics()), line);
    }

    /** {@code throttle.metrics} as Throttle chose it at start-up: none on the plain server, which has no metrics API. */
    default String expectedMetrics() {
        return "none";
    }
}
