package io.github.throttle.cdi;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleAdmin;
import io.github.throttle.ThrottledException;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;

import java.time.temporal.ChronoUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ThrottleAdmin.resetAll()} over a real Redis holding many counts: it walks the whole keyspace of counts,
 * which takes far longer than one decision's timeout, and is bounded by a limit of its own.
 */
class ResetAllOverRedisTest {

    private static final int KEYS = 200_000;

    @ApplicationScoped
    public static class Logins {
        @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
        public String login() {
            return "welcome";
        }
    }

    @Test
    void resetAllOfALargeKeyspaceIsBoundedByItsOwnLimitNotByTheStoreTimeout() {
        try (RedisProcess redis = RedisProcess.start();
             CdiContainer cdi = CdiContainer.start(TestConfig.of("throttle.redis.uri", redis.uri(), "throttle.redis.timeout", "200ms"),
                     Logins.class, ThrottleAdminBean.class)) {
            Logins logins = cdi.bean(Logins.class);
            // until the store refuses: on a busy machine the first calls of a JVM may outlast this test's short
            // timeout, pass under the failure policy and have what they took given back when their answers come
            boolean refused = false;
            for (int i = 0; i < 100 && !refused; i++) {
                refused = tryLogin(logins) == null;
            }
            assertTrue(refused, "the login's quota is spent");
            RedisClient client = RedisClient.create(redis.uri());
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                // many identities' counts, under the prefix
                c.sync().eval("for i = 1, tonumber(ARGV[1]) do redis.call('HSET', 'throttle:filler:' .. i, 'w', '1') end return 1",
                        ScriptOutputType.INTEGER, new String[0], Integer.toString(KEYS));
                // the login's count too, unless every call it counted timed out and was given back since
                assertTrue(c.sync().dbsize() - settingsKeys(c) >= KEYS, "the filler and the login's count");

                cdi.bean(ThrottleAdmin.class).resetAll();

                assertEquals(0L, c.sync().dbsize() - settingsKeys(c), "every count is gone");
            } finally {
                client.shutdown();
            }
            assertEquals("welcome", logins.login(), "the login's count went too, and its denial was forgotten");
        }
    }

    private static String tryLogin(Logins logins) {
        try {
            return logins.login();
        } catch (ThrottledException e) {
            return null;
        }
    }

    /** Keys of settings shared by every instance (not counts): they stay. */
    private static long settingsKeys(StatefulRedisConnection<String, String> c) {
        return c.sync().keys("throttle::*").size();
    }
}
