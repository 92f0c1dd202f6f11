package it.throttle.payara;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.HashMap;
import java.util.Map;

/** The scenarios on Payara Micro with no Redis configured: the embedded store. */
class EmbeddedStoreIT extends PayaraScenarios {

    private static PayaraMicro payara;

    @BeforeAll
    static void start() {
        Map<String, String> env = new HashMap<>();
        // whatever the build's own environment holds, this run has no Redis
        env.put("THROTTLE_REDIS_URI", null);
        payara = PayaraMicro.start("embedded", env);
    }

    @AfterAll
    static void stop() {
        if (payara != null) {
            payara.close();
        }
    }

    @Override
    protected PayaraMicro payara() {
        return payara;
    }

    @Override
    public String storeKind() {
        return "memory";
    }

    @Override
    protected String expectedStore() {
        return "embedded in-memory store";
    }
}
