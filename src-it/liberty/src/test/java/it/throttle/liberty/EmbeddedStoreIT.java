package it.throttle.liberty;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/** The scenarios on Open Liberty with no Redis configured: the embedded in-memory store. */
class EmbeddedStoreIT extends LibertySuite {

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
    protected String expectedStore() {
        return "embedded in-memory store";
    }

    @Override
    protected LibertyServer server() {
        return server;
    }
}
