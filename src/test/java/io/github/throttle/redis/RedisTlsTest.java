package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.testing.JvmTrustStore;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.ProbingDecider;
import io.github.throttle.testing.RedisClusterProcess;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.RedisSentinelProcess;
import io.github.throttle.testing.TestCertificates;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rediss://} against real redis-server processes with certificates of the test's own CA: Sentinel and
 * Cluster over TLS, and the servers a client must refuse (a CA it does not trust, an expired certificate, a
 * certificate for another host), each refusal going through the failure policy and logged once, at ERROR,
 * without credentials. (The store contract over TLS: {@link RedisTlsStoreTest}.)
 */
public class RedisTlsTest {

    private static final String PASSWORD = "tls-pw-s3cret";
    /**
     * The stores' timeout: a refusal is answered at once, so a long one costs nothing and keeps a slow connection
     * on a loaded machine from passing for the refusal under test.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Limit LIMIT = Limit.fixed(100, 3_600_000);
    private static final List<Limit> LIMITS = List.of(LIMIT);

    private static StoreCall call(String key) {
        return StoreCall.builder(-1, true).add(key, LIMIT, 1, 0).build();
    }

    private static StoreReply decide(Store store, String key) {
        return store.decide(call(key)).toCompletableFuture().join();
    }

    /** The JVM trusts the shared test CA, unless a test says otherwise for a while. */
    private static JvmTrustStore trust;

    @BeforeAll
    static void trustTheTestCa() {
        trust = JvmTrustStore.trusting(TestCertificates.shared());
    }

    @AfterAll
    static void forgetTheTestCa() {
        trust.close();
    }

    @Test
    void aSentinelManagedPrimaryIsFoundAndUsedOverTls() {
        try (RedisSentinelProcess redis = RedisSentinelProcess.startTls(TestCertificates.shared().server());
             Store store = RedisStores.open(redis.uri(), false, Duration.ofSeconds(5))) {
            assertEquals(List.of(99L, 98L, 97L), List.of(decide(store, "tls-sentinel").remaining(0),
                    decide(store, "tls-sentinel").remaining(0), decide(store, "tls-sentinel").remaining(0)));
            assertEquals(redis.primary().tlsPort(), redis.primaryPort(), "the sentinel names the primary's TLS port");
            assertTrue(clients(redis.primary()).contains("laddr=127.0.0.1:" + redis.primary().tlsPort()));
        }
    }

    @Test
    void aClusterIsDiscoveredAndUsedOverTls() {
        try (RedisClusterProcess cluster = RedisClusterProcess.startTls(TestCertificates.shared().server());
             Store store = RedisStores.open(cluster.seeds(), true, Duration.ofSeconds(5))) {
            for (int i = 0; i < 30; i++) {
                assertEquals(99, decide(store, "tls-cluster:" + i).remaining(0));
            }
            // one call over keys of several slots: decided per slot, each over TLS
            StoreCall across = StoreCall.builder(-1, true).add("tls-cluster:0", LIMIT, 1, 0).add("tls-cluster:1", LIMIT, 1, 0)
                    .add("tls-cluster:2", LIMIT, 1, 0).build();
            assertTrue(store.decide(across).toCompletableFuture().join().allowed());
            for (int i = 0; i < cluster.size(); i++) {
                assertTrue(cluster.node(i).dbsize() > 0, "node " + i + " holds keys");
                assertTrue(clients(cluster.process(i)).contains("laddr=127.0.0.1:" + cluster.process(i).tlsPort()),
                        "node " + i + " is used over TLS");
            }
        }
    }

    @Test
    void aServerWhoseCaTheTrustStoreLacksIsRefusedLoggedOnceAndServedAgainOnceTrusted() {
        TestCertificates ours = TestCertificates.shared();
        TestCertificates strangers = TestCertificates.newAuthority("Some other CA");
        try (LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.startTls(ours.server(), "--requirepass", PASSWORD);
             JvmTrustStore distrust = JvmTrustStore.trusting(strangers);
             Store store = RedisStores.open("rediss://:" + PASSWORD + "@127.0.0.1:" + redis.tlsPort(), false, TIMEOUT)) {
            ProbingDecider decider = new ProbingDecider(store, true);
            String error = refused(decider, log, true);
            assertTrue(error.contains("not signed by a CA in this JVM's trust store (javax.net.ssl.trustStore)"), error);
            assertEquals(List.of(), log.at(Level.WARNING), "no warning at start-up: the certificate is verified");
            try (JvmTrustStore trust = JvmTrustStore.trusting(ours)) {
                assertEquals(99, decider.decideUntilCounted(call("untrusted"), LIMITS).remaining());
            }
            assertEquals(1, log.all().stream().filter(m -> m.contains("counting resumed")).count(), log.all().toString());
            assertTrue(log.all().stream().noneMatch(m -> m.contains(PASSWORD)), "a log line shows the password: " + log.all());
        }
    }

    @Test
    void anExpiredCertificateIsRefusedAndCallsAreAllowedUncountedWithAllow() {
        try (LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.startTls(TestCertificates.shared().expiredServer());
             Store store = RedisStores.open("rediss://127.0.0.1:" + redis.tlsPort(), false, TIMEOUT)) {
            String error = refused(new ProbingDecider(store, false), log, false);
            assertTrue(error.contains("certificate has expired"), error);
        }
    }

    /** The one ERROR logged while ten calls, each asking the store, all get the failure decision of {@code deny}. */
    private static String refused(ProbingDecider decider, LogCapture log, boolean deny) {
        for (int i = 0; i < 10; i++) {
            Decision d = decider.ask(call("refused"), LIMITS);
            assertTrue(d.isUnmetered(), "the failure decision");
            assertEquals(!deny, d.allowed(), "on-store-failure=" + (deny ? "deny" : "allow") + " applies");
        }
        String error = log.only(Level.SEVERE);
        System.out.println("logged: " + error);
        return error;
    }

    @Test
    void aCertificateForAnotherAddressIsRefusedUnlessTheUriOnlyAsksForTheCa() {
        try (LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.startTls(TestCertificates.shared().serverFor("127.0.0.2"))) {
            try (Store store = RedisStores.open("rediss://127.0.0.1:" + redis.tlsPort(), false, TIMEOUT)) {
                assertTrue(new ProbingDecider(store, false).ask(call("host"), LIMITS).isUnmetered());
                assertTrue(log.only(Level.SEVERE).contains("does not name the host"), log.all().toString());
            }
            try (Store store = RedisStores.open("rediss://127.0.0.1:" + redis.tlsPort() + "?verifyPeer=CA", false, TIMEOUT)) {
                assertEquals(99, decide(store, "host").remaining(0), "the CA is checked, the host name is not");
            }
            assertTrue(log.only(Level.WARNING).contains("verifyPeer=CA"), log.all().toString());
        }
    }

    @Test
    void verifyPeerNoneTrustsAnyServerAndSaysSoAtStartUp() {
        TestCertificates strangers = TestCertificates.newAuthority("Unknown CA");
        try (LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.startTls(strangers.server(), "--requirepass", PASSWORD);
             Store store = RedisStores.open("rediss://:" + PASSWORD + "@127.0.0.1:" + redis.tlsPort() + "?verifyPeer=NONE",
                     false, TIMEOUT)) {
            String warning = log.only(Level.WARNING);
            assertTrue(warning.contains("does not verify the server's certificate (verifyPeer=NONE)"), warning);
            assertFalse(warning.contains(PASSWORD));
            assertEquals(99, decide(store, "none").remaining(0));
            System.out.println("logged: " + warning);
        }
    }

    @Test
    void anUnknownVerifyPeerFailsStartUpNamingIt() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RedisStores.open("rediss://:" + PASSWORD + "@127.0.0.1:6380?verifyPeer=false", false, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("verifyPeer must be FULL (the default), CA or NONE"), e.getMessage());
        assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
    }

    private static String clients(RedisProcess server) {
        RedisClient admin = RedisClient.create();
        try (StatefulRedisConnection<String, String> c = admin.connect(RedisURI.create(server.uri()))) {
            return c.sync().clientList();
        } finally {
            admin.shutdown();
        }
    }
}
