package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.testing.JvmTrustStore;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisClusterProcess;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.RedisSentinelProcess;
import io.github.throttle.testing.TestCertificates;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
class RedisTlsTest {

    private static final String PASSWORD = "tls-pw-s3cret";
    private static final Limit LIMIT = Limit.fixed(100, 3_600_000);
    private static final List<Limit> LIMITS = List.of(LIMIT);

    private static StoreCall call(String key) {
        return StoreCall.builder(-1, true).add(key, LIMIT, 1, 0).build();
    }

    private static StoreReply decide(Store store, String key) {
        return store.decide(call(key)).toCompletableFuture().join();
    }

    @Test
    void aSentinelManagedPrimaryIsFoundAndUsedOverTls() {
        TestCertificates ca = TestCertificates.shared();
        try (JvmTrustStore trust = JvmTrustStore.trusting(ca);
             RedisSentinelProcess redis = RedisSentinelProcess.startTls(ca.server());
             Store store = RedisStores.open(redis.uri(), false, Duration.ofSeconds(5))) {
            assertTrue(redis.uri().startsWith("rediss-sentinel://"));
            for (int i = 0; i < 5; i++) {
                assertEquals(99 - i, decide(store, "tls-sentinel").remaining(0));
            }
            assertEquals(redis.primary().tlsPort(), redis.primaryPort(), "the sentinel names the primary's TLS port");
            assertTrue(clients(redis.primary()).contains("laddr=127.0.0.1:" + redis.primary().tlsPort()));
        }
    }

    @Test
    void aClusterIsDiscoveredAndUsedOverTls() {
        TestCertificates ca = TestCertificates.shared();
        try (JvmTrustStore trust = JvmTrustStore.trusting(ca);
             RedisClusterProcess cluster = RedisClusterProcess.startTls(ca.server());
             Store store = RedisStores.open(cluster.seeds(), true, Duration.ofSeconds(5))) {
            assertTrue(cluster.seeds().startsWith("rediss://"));
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
             Store store = RedisStores.open("rediss://:" + PASSWORD + "@127.0.0.1:" + redis.tlsPort(), false, Duration.ofSeconds(2))) {
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofSeconds(2), true, Duration.ofMillis(250));
            try (JvmTrustStore trust = JvmTrustStore.trusting(strangers)) {
                for (int i = 0; i < 20; i++) {
                    clock.advanceMillis(400);  // past the open period: every call probes, and is refused again
                    Decision d = decider.decide(call("untrusted"), LIMITS).toCompletableFuture().join();
                    assertFalse(d.allowed(), "on-store-failure=deny applies");
                    assertTrue(d.isUnmetered());
                }
            }
            List<String> errors = log.at(Level.SEVERE);
            assertEquals(1, errors.size(), "one line per episode: " + log.all());
            assertTrue(errors.get(0).contains("not signed by a CA in this JVM's trust store (javax.net.ssl.trustStore)"), errors.get(0));
            assertEquals(List.of(), log.at(Level.WARNING), "no warning at start-up: the certificate is verified");
            try (JvmTrustStore trust = JvmTrustStore.trusting(ours)) {
                Decision d = awaitCounted(decider, clock, "untrusted");
                assertEquals(99, d.remaining());
            }
            assertEquals(1, log.all().stream().filter(m -> m.contains("counting resumed")).count(), log.all().toString());
            assertTrue(log.all().stream().noneMatch(m -> m.contains(PASSWORD)), "a log line shows the password: " + log.all());
            System.out.println("logged: " + errors.get(0));
        }
    }

    @Test
    void anExpiredCertificateIsRefusedAndCallsAreAllowedUncountedWithAllow() {
        TestCertificates ca = TestCertificates.shared();
        try (JvmTrustStore trust = JvmTrustStore.trusting(ca);
             LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.startTls(ca.expiredServer());
             Store store = RedisStores.open("rediss://127.0.0.1:" + redis.tlsPort(), false, Duration.ofSeconds(2))) {
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofSeconds(2), false, Duration.ofMillis(250));
            for (int i = 0; i < 10; i++) {
                clock.advanceMillis(400);
                Decision d = decider.decide(call("expired"), LIMITS).toCompletableFuture().join();
                assertTrue(d.allowed() && d.isUnmetered(), "on-store-failure=allow applies");
            }
            List<String> errors = log.at(Level.SEVERE);
            assertEquals(1, errors.size(), log.all().toString());
            assertTrue(errors.get(0).contains("certificate has expired"), errors.get(0));
            System.out.println("logged: " + errors.get(0));
        }
    }

    @Test
    void aCertificateForAnotherAddressIsRefusedUnlessTheUriOnlyAsksForTheCa() {
        TestCertificates ca = TestCertificates.shared();
        try (JvmTrustStore trust = JvmTrustStore.trusting(ca);
             LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.startTls(ca.serverFor("127.0.0.2"))) {
            try (Store store = RedisStores.open("rediss://127.0.0.1:" + redis.tlsPort(), false, Duration.ofSeconds(2))) {
                Decider decider = new Decider(store, new MutableClock(0), false, Duration.ofSeconds(2), false, Duration.ofMillis(250));
                assertTrue(decider.decide(call("host"), LIMITS).toCompletableFuture().join().isUnmetered());
                assertTrue(log.at(Level.SEVERE).get(0).contains("does not name the host"), log.all().toString());
            }
            try (Store store = RedisStores.open("rediss://127.0.0.1:" + redis.tlsPort() + "?verifyPeer=CA", false, Duration.ofSeconds(2))) {
                assertEquals(99, decide(store, "host").remaining(0), "the CA is checked, the host name is not");
            }
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(1, warnings.size(), log.all().toString());
            assertTrue(warnings.get(0).contains("verifyPeer=CA"), warnings.get(0));
        }
    }

    @Test
    void verifyPeerNoneTrustsAnyServerAndSaysSoAtStartUp() {
        TestCertificates strangers = TestCertificates.newAuthority("Unknown CA");
        try (JvmTrustStore trust = JvmTrustStore.trusting(TestCertificates.shared());
             LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.startTls(strangers.server(), "--requirepass", PASSWORD);
             Store store = RedisStores.open("rediss://:" + PASSWORD + "@127.0.0.1:" + redis.tlsPort() + "?verifyPeer=NONE",
                     false, Duration.ofSeconds(2))) {
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(1, warnings.size(), log.all().toString());
            assertTrue(warnings.get(0).contains("does not verify the server's certificate (verifyPeer=NONE)"), warnings.get(0));
            assertFalse(warnings.get(0).contains(PASSWORD));
            assertEquals(99, decide(store, "none").remaining(0));
            System.out.println("logged: " + warnings.get(0));
        }
    }

    @Test
    void anUnknownVerifyPeerFailsStartUpNamingIt() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RedisStores.open("rediss://:" + PASSWORD + "@127.0.0.1:6380?verifyPeer=false", false, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("verifyPeer must be FULL (the default), CA or NONE"), e.getMessage());
        assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
    }

    /** Decides until the store counts again (the open period passed on the decider's clock each time). */
    private static Decision awaitCounted(Decider decider, MutableClock clock, String key) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Decision d;
        do {
            clock.advanceMillis(400);
            d = decider.decide(call(key), LIMITS).toCompletableFuture().join();
        } while (d.isUnmetered() && System.nanoTime() < until);
        assertFalse(d.isUnmetered(), "not counting again within 10 s");
        return d;
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
