package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.Outcome;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.metrics.Meters;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.RedisClusterProcess;
import io.github.throttle.testing.TestConfig;
import io.github.throttle.testing.ThrottleClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counts survive a Cluster failover ({@code throttle.redis.replica-acks}), through the limiter: three primaries
 * with one replica each. A caller allowed 20 calls an hour makes 10 calls its key's replica holds; that replica's
 * link is broken (a wrong {@code masterauth}, then {@code CLIENT KILL TYPE master}); 10 more calls; the replica
 * takes the slots over ({@code CLUSTER FAILOVER TAKEOVER}) and the old primary, outvoted, follows it. With one
 * replica's acknowledgement asked for, the calls while the link was broken are refused and not counted, and the
 * caller gets exactly 20; without, 30.
 */
public class ReplicaAcksClusterTest {

    /** Only a real fault takes this long. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Limiter limiter(RedisClusterProcess cluster, int replicaAcks) {
        Config config = TestConfig.of(ThrottleSettings.REDIS_URI, cluster.seeds(), ThrottleSettings.REDIS_CLUSTER, "true",
                ThrottleSettings.REPLICA_ACKS, Integer.toString(replicaAcks), ThrottleSettings.ON_STORE_FAILURE, "deny",
                ThrottleSettings.REDIS_TIMEOUT, "1s", ThrottleSettings.METRICS, "micrometer");
        return Bootstrap.start(config, type -> null, type -> Optional.of(() -> registry), m -> false, Optional.empty(),
                new ThrottleClock());
    }

    @ParameterizedTest(name = "replica-acks={0}")
    @ValueSource(ints = {1, 0})
    void afterATakeoverByAReplicaWhoseLinkWasBrokenTheCallerGetsExactlyItsLimitOnlyWhenAReplicaMustAcknowledge(int replicaAcks)
            throws InterruptedException {
        try (LogCapture log = new LogCapture();
             RedisClusterProcess cluster = RedisClusterProcess.startWithReplicas();
             Limiter l = limiter(cluster, replicaAcks)) {
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            // the first call connects and loads the slot map; on a loaded machine that may outlast the timeout
            Decision first = ReplicaAcksFailoverTest.call(l);
            while (first.outcome() == Outcome.FAILURE_DENIED) {
                assertTrue(System.nanoTime() < deadline, "the cluster never answered; log: " + log.all());
                TimeUnit.MILLISECONDS.sleep(50);
                first = ReplicaAcksFailoverTest.call(l);
            }
            assertEquals(Outcome.ALLOWED, first.outcome());
            for (int i = 1; i < 10; i++) {
                Decision d = ReplicaAcksFailoverTest.call(l);
                assertEquals(Outcome.ALLOWED, d.outcome(), "call " + i);
                assertEquals(19 - i, d.remaining());
            }
            String key = key(cluster);
            int p = primaryHolding(cluster, key);
            // the replica has every write so far: a write in the key's slot (its hash tag), then WAIT
            cluster.node(p).set("barrier{" + key + "}", "1");
            assertEquals(1L, cluster.node(p).waitForReplication(1, 30_000));

            // the replica cannot follow its primary any more: with a masterauth set, it starts each handshake with
            // AUTH, which P (no requirepass) answers with an error ("called without any password configured"), and
            // the replica gives that attempt up ("Unable to AUTH to MASTER"), on every reconnect; CLIENT KILL TYPE
            // master ends the link it had. P itself is left alone (a requirepass on it would lock this test out too)
            cluster.replicaOf(p).configSet("masterauth", "wrong");
            cluster.replicaOf(p).clientKill(io.lettuce.core.KillArgs.Builder.typeMaster());
            awaitTrue(() -> cluster.replicaOf(p).info("replication").contains("master_link_status:down"), "the link is down", log);
            List<Outcome> whileBroken = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                whileBroken.add(ReplicaAcksFailoverTest.call(l).outcome());
            }
            assertEquals(List.of(replicaAcks == 1 ? Outcome.FAILURE_DENIED : Outcome.ALLOWED), whileBroken.stream().distinct().toList());

            // still down: the calls above met a primary whose replica has none of them
            assertTrue(cluster.replicaOf(p).info("replication").contains("master_link_status:down"), "the link stayed down");
            cluster.replicaOf(p).clusterFailover(false, true);
            long[] tookOverAt = {System.nanoTime()};
            awaitTrue(() -> {
                // a takeover bumps the epoch without the others' consent; should it collide with the old primary's, the
                // node with the smaller id wins the slots back, and the replica follows it again: take over again
                if (cluster.replicaOf(p).info("replication").contains("role:slave")
                        && System.nanoTime() - tookOverAt[0] > TimeUnit.SECONDS.toNanos(2)) {
                    cluster.replicaOf(p).clusterFailover(false, true);
                    tookOverAt[0] = System.nanoTime();
                }
                return cluster.replicaOf(p).info("replication").contains("role:master")
                    && cluster.node(p).info("replication").contains("role:slave")
                    && cluster.node(p).info("replication").contains("master_link_status:up");
            }, "the replica took over, and the old primary follows it", log,
                    () -> "old primary: " + cluster.node(p).info("replication") + "\nreplica: " + cluster.replicaOf(p).info("replication")
                            + "\n" + cluster.replicaOf(p).clusterNodes());
            int allowed = 0;
            while (true) {
                Decision d = ReplicaAcksFailoverTest.call(l);
                if (d.outcome() == Outcome.ALLOWED) {
                    allowed++;
                } else if (d.outcome() == Outcome.DENIED) {
                    break;
                } else {
                    assertEquals(Outcome.FAILURE_DENIED, d.outcome());
                    assertTrue(System.nanoTime() < deadline, "calls not decided by the new primary within 60 s; log: " + log.all());
                    TimeUnit.MILLISECONDS.sleep(50);
                }
            }
            long allowedWhileBroken = whileBroken.stream().filter(o -> o == Outcome.ALLOWED).count();
            assertEquals(10, allowed, "the new primary held the first 10 calls, and nothing of the calls while broken");
            assertEquals(replicaAcks == 1 ? 20 : 30, 10 + allowedWhileBroken + allowed, "calls allowed in one window of 20");
            // the store reads the new primary's replication state when it connects there, beside the calls: await it
            awaitTrue(() -> log.at(Level.WARNING).stream().anyMatch(m -> m.contains("promoted the replica at 127.0.0.1:"
                    + cluster.replicaProcess(p).port())), "the promotion is logged", log);
            assertTrue(registry.get(Meters.PROMOTIONS).counter().count() >= 1);
        }
    }

    /** The caller's key: the one key of the bucket in the cluster, besides the barrier and the readiness probe. */
    private static String key(RedisClusterProcess cluster) {
        for (int i = 0; i < cluster.size(); i++) {
            for (String k : cluster.node(i).keys("throttle:*ReplicaAcksFailoverTest*")) {
                return k;
            }
        }
        throw new AssertionError("no key of the bucket");
    }

    /** The primary whose slots hold {@code key}: the one that lists it (another would answer {@code MOVED}). */
    private static int primaryHolding(RedisClusterProcess cluster, String key) {
        for (int i = 0; i < cluster.size(); i++) {
            if (cluster.node(i).keys("*").contains(key)) {
                return i;
            }
        }
        throw new AssertionError("no primary holds " + key);
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what, LogCapture log)
            throws InterruptedException {
        awaitTrue(condition, what, log, () -> "");
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what, LogCapture log,
                                  java.util.function.Supplier<String> state) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what + "; " + state.get() + "\nlog: " + log.all());
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
