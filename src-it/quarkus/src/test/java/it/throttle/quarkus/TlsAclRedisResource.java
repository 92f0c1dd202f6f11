package it.throttle.quarkus;

import io.github.throttle.testing.AclUser;
import io.github.throttle.testing.JvmTrustStore;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestCertificates;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.Map;

/**
 * A redis-server serving TLS with a certificate of a CA of the test's own, and the README's least-privilege user
 * (its {@code ACL SETUSER} line, read from the README): the application connects as that user over
 * {@code rediss://}, trusting the CA through {@code javax.net.ssl.trustStore}, as an operator sets it with
 * {@code -Djavax.net.ssl.trustStore=...} on Quarkus.
 */
public class TlsAclRedisResource implements QuarkusTestResourceLifecycleManager {

    /** The server of the application under test, for its tests. */
    static volatile RedisProcess redis;

    /** The server this instance started: it stops that one, whichever {@link #redis} names by then. */
    private RedisProcess started;
    private JvmTrustStore trust;

    @Override
    public Map<String, String> start() {
        TestCertificates ca = TestCertificates.newAuthority("Throttle IT CA");
        // the default user needs a password too: nothing but the ACL user gets in without one
        started = RedisProcess.startTls(ca.server(), "--requirepass", "admin-only");
        redis = started;
        try (Admin admin = new Admin()) {
            AclUser.run(admin.connection.sync(), AclUser.readmeCommand(Path.of(System.getProperty("throttle.readme"))));
        }
        trust = JvmTrustStore.trusting(ca);
        return Map.of("throttle.redis.uri", AclUser.uri(true, redis.tlsPort()));
    }

    @Override
    public void stop() {
        try (JvmTrustStore t = trust; RedisProcess r = started) {
            // both closed on leaving, if they were made: the JVM's trust store restored, Redis stopped
        }
    }

    /** The default user on the plain port, for what the test checks. */
    static final class Admin implements AutoCloseable {
        private final RedisClient client = RedisClient.create();
        final StatefulRedisConnection<String, String> connection =
                client.connect(RedisURI.create("redis://:admin-only@127.0.0.1:" + redis.port()));

        @Override
        public void close() {
            connection.close();
            client.shutdown();
        }
    }
}
