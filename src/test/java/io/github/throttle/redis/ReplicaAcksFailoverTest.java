package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.Outcome;
import io.github.throttle.Throttle;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.metrics.Meters;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.RedisSentinelProcess;
import io.github.throttle.testing.TcpRelay;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import io.github.throttle.testing.ThrottleClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counts survive a failover ({@code throttle.redis.replica-acks}), through the limiter as an application runs it,
 * over a Sentinel-managed primary with two replicas whose replication links the test can cut. A caller allowed 20
 * calls an hour makes 10 calls that both replicas hold; both links are cut; it makes 10 more; the primary is
 * killed and the sentinel promotes a replica and re-points the other at it; the caller then calls until the store
 * denies. With one replica's acknowledgement asked for, the calls made while none could acknowledge are refused
 * (the failure policy: {@code deny}) and not counted, and the caller gets exactly its 20 from the store. Without,
 * those 10 are allowed and lost with the primary: 30 in a window of 20, the bound the docs state. Under
 * {@code local}, the calls while cut are counted by this instance (at most the local share of the limit), and
 * the store still grants exactly 20.
 */
public class ReplicaAcksFailoverTest {

    /** Only a real fault takes this long: the failover itself takes about two seconds. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    public static class Api {
        @Throttle(limit = 20, duration = 3600, precision = 60)
        public void call() {
        }
    }

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Limiter limiter(String uri, int replicaAcks, String policy) {
        Config config = TestConfig.of(ThrottleSettings.REDIS_URI, uri, ThrottleSettings.REPLICA_ACKS, Integer.toString(replicaAcks),
                ThrottleSettings.ON_STORE_FAILURE, policy, ThrottleSettings.REDIS_TIMEOUT, "1s", ThrottleSettings.METRICS, "micrometer");
        return Bootstrap.start(config, ReplicaAcksFailoverTest::instance, type -> Optional.of(() -> registry), m -> false,
                Optional.empty(), new ThrottleClock());
    }

    private static Object instance(Class<?> type) {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A call of {@link Api#call} by one caller, as the application makes it. */
    static Decision call(Limiter l) {
        try {
            return l.admit(l.target(Api.class, Api.class.getDeclaredMethod("call")), new TestCaller("10.0.0.9", "ann", Map.of()))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest(name = "replica-acks={0}, on-store-failure={1}")
    @CsvSource({"1, deny", "0, deny", "1, local"})
    void afterBothLinksAreCutAndThePrimaryDiesTheCallerGetsExactlyItsLimitOnlyWhenAReplicaMustAcknowledge(int replicaAcks,
                                                                                                         String policy)
            throws InterruptedException {
        Outcome failed = policy.equals("deny") ? Outcome.FAILURE_DENIED : Outcome.LOCAL_ALLOWED;
        try (LogCapture log = new LogCapture();
             RedisSentinelProcess redis = RedisSentinelProcess.startRelayed(2);
             Limiter l = limiter(redis.uri(), replicaAcks, policy)) {
            await("the store answers", () -> l.storeReachable().toCompletableFuture().join(), redis);
            for (int i = 0; i < 10; i++) {
                Decision d = call(l);
                assertEquals(Outcome.ALLOWED, d.outcome(), "call " + i);
                assertEquals(19 - i, d.remaining());
            }
            bothReplicasHoldEverything(redis);

            redis.relays().forEach(TcpRelay::cut);
            List<Outcome> whileCut = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                whileCut.add(call(l).outcome());
            }
            if (replicaAcks == 1) {
                assertEquals(List.of(failed), whileCut.stream().distinct().toList(),
                        "no replica can acknowledge: each call gets the failure policy and is not counted in Redis");
                assertFalse(l.storeReachable().toCompletableFuture().join(), "not ready while acknowledgements cannot be had");
            } else {
                assertEquals(List.of(Outcome.ALLOWED), whileCut.stream().distinct().toList(), "allowed, on the primary alone");
            }

            int killed = redis.primary().port();
            redis.primary().kill();
            await("the sentinel promotes a replica", () -> redis.primaryPort() != killed, redis);
            int allowed = 0;
            Decision d;
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (true) {
                d = call(l);
                if (d.outcome() == Outcome.ALLOWED) {
                    allowed++;
                } else if (d.outcome() == Outcome.DENIED) {
                    break;
                } else {
                    // the store reconnects to the promoted replica, which must gain its sibling before acks=1 holds;
                    // meanwhile the failure policy (locally: at most the rest of the local share)
                    assertTrue(d.outcome() == failed || d.outcome() == Outcome.LOCAL_DENIED, d.outcome() + " under " + policy);
                    assertTrue(System.nanoTime() < deadline, "calls not decided by the new primary within 60 s; log: " + log.all());
                    TimeUnit.MILLISECONDS.sleep(50);
                }
            }
            long allowedWhileCut = whileCut.stream().filter(o -> o == Outcome.ALLOWED).count();
            assertEquals(10, allowed, "the promoted replica held the first 10 calls, and nothing of the calls made while cut");
            if (policy.equals("local")) {
                assertEquals(20, 10 + allowed, "the store granted exactly the limit; this instance at most its local share more");
                return;
            }
            assertEquals(replicaAcks == 1 ? 20 : 30, 10 + allowedWhileCut + allowed, "calls allowed in one window of 20");
            // the store reads the new primary's replication state when it connects there, beside the calls: await it
            await("the promotion is logged naming the old primary", () -> log.at(Level.WARNING).stream()
                    .anyMatch(m -> m.contains("promoted the replica at") && m.contains(":" + killed)), redis);
            assertEquals(1.0, registry.get(Meters.PROMOTIONS).counter().count());
            if (replicaAcks == 1) {
                assertTrue(registry.get(Meters.REPLICA_ACKS).tag("outcome", Meters.LACKING).timer().count() >= 1);
                assertTrue(registry.get(Meters.REPLICA_ACKS).tag("outcome", Meters.ACKNOWLEDGED).timer().count() >= 20);
            } else {
                assertTrue(registry.find(Meters.REPLICA_ACKS).timers().isEmpty(), "no acknowledgements asked for");
            }
        }
    }

    /**
     * Too few replicas for {@code replica-acks}: a WARNING naming the primary, and the failure policy for every call,
     * whose weight is given back; once a replica follows the primary, the caller gets exactly its limit.
     */
    @Test
    void aPrimaryWithTooFewReplicasIsNamedAndItsCallsGetTheFailurePolicyAndAreGivenBack() throws InterruptedException {
        try (LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.start();
             Limiter l = limiter(redis.uri(), 1, "deny")) {
            for (int i = 0; i < 5; i++) {
                assertEquals(Outcome.FAILURE_DENIED, call(l).outcome());
            }
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (log.at(Level.WARNING).stream().noneMatch(m -> m.contains(":" + redis.port() + " has 0 replica(s) connected"))) {
                assertTrue(System.nanoTime() < deadline, "no warning naming the primary: " + log.all());
                TimeUnit.MILLISECONDS.sleep(20);
            }
            try (RedisProcess replica = RedisProcess.start("--replicaof", "127.0.0.1", Integer.toString(redis.port()))) {
                int allowed = 0;
                while (true) {
                    Outcome o = call(l).outcome();
                    if (o == Outcome.ALLOWED) {
                        allowed++;
                    } else if (o == Outcome.DENIED) {
                        break;
                    } else {
                        assertTrue(System.nanoTime() < deadline, "the replica never acknowledged; log: " + log.all());
                        TimeUnit.MILLISECONDS.sleep(50);
                    }
                }
                assertEquals(20, allowed, "the refused calls were given back: the caller gets its whole limit");
            }
        }
    }

    /** Both replicas have every write so far: a write of our own, then {@code WAIT 2}, on the primary. */
    private static void bothReplicasHoldEverything(RedisSentinelProcess redis) {
        try (RedisClient client = RedisClient.create();
             StatefulRedisConnection<String, String> c = client.connect(RedisURI.create(redis.primary().uri()))) {
            c.sync().set("test:barrier", "1");
            assertEquals(2L, c.sync().waitForReplication(2, 30_000));
        }
    }

    private static void await(String what, java.util.function.BooleanSupplier condition, RedisSentinelProcess redis)
            throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                // the sentinel is busy failing over: ask again
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what + "; sentinel log:\n" + redis.sentinelLog());
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
