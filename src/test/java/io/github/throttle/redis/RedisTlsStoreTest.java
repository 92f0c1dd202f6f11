package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreContract;
import io.github.throttle.testing.JvmTrustStore;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestCertificates;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The store contract over TLS: {@code rediss://} to a redis-server with a certificate from a CA of the test's
 * own, trusted through {@code javax.net.ssl.trustStore} only, host name (an IP address) checked.
 */
public class RedisTlsStoreTest extends StoreContract {

    private static final long SLACK = 120_000;

    private static JvmTrustStore trust;
    private static RedisProcess redis;
    private static RedisStore store;
    private static LogCapture log;

    @BeforeAll
    static void startTlsRedis() {
        TestCertificates ca = TestCertificates.shared();
        trust = JvmTrustStore.trusting(ca);
        redis = RedisProcess.startTls(ca.server(), "--requirepass", "tls-s3cret");
        log = new LogCapture();
        var uri = RedisUris.parse("rediss://:tls-s3cret@127.0.0.1:" + redis.tlsPort(), false).get(0);
        store = new RedisStore(uri, Duration.ofSeconds(5), SLACK);
    }

    @AfterAll
    static void stop() {
        store.close();
        redis.close();
        trust.close();
        log.close();
    }

    @Override
    public Store store() {
        return store;
    }

    @Test
    void theConnectionIsTheTlsOneAndNothingWasLogged() {
        call(SIX_PM, freshKey(), Limit.fixed(1, SECOND));
        RedisClient admin = RedisClient.create();
        try (StatefulRedisConnection<String, String> c = admin.connect(io.lettuce.core.RedisURI.create(
                "redis://:tls-s3cret@127.0.0.1:" + redis.port()))) {
            String clients = c.sync().clientList();
            assertTrue(clients.contains("laddr=127.0.0.1:" + redis.tlsPort()), clients);
        } finally {
            admin.shutdown();
        }
        assertEquals(0, log.at(Level.WARNING).size() + log.at(Level.SEVERE).size(), "logged: " + log.all());
    }
}
