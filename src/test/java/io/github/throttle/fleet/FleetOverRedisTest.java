package io.github.throttle.fleet;

import io.github.throttle.ThrottleAdmin.Assignment;
import io.github.throttle.Throttler.Rate;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.SharedState;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisClusterProcess;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestCaller;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CompletableFuture;

import static io.github.throttle.fleet.FleetInstances.admin;
import static io.github.throttle.fleet.FleetInstances.call;
import static io.github.throttle.fleet.FleetInstances.fleet;
import static io.github.throttle.fleet.FleetInstances.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Instances sharing a Redis, standalone or Cluster: changes made on any of them, at once, end up everywhere. */
class FleetOverRedisTest {

    private final MutableClock clock = new MutableClock(1_790_000_000_000L);

    @Test
    void twoInstancesChangingAssignmentsAtOnceEndUpWithTheSameOnes() {
        try (RedisProcess redis = RedisProcess.start();
             Limiter one = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock);
             Limiter two = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock)) {
            CompletableFuture<Void> fromOne = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 300; i++) {
                    admin(one).assign("key:a" + i, "pro", null, "ops");
                    admin(one).assign("key:both", "blocked", null, "ops");
                }
            });
            for (int i = 0; i < 300; i++) {
                admin(two).assign("key:b" + i, "unlimited", null, "ops");
                admin(two).unassign("key:a" + i, "ops");
            }
            fromOne.join();
            admin(two).assign("key:both", "pro", null, "ops");
            fleet(one).poll();
            fleet(two).poll();

            assertEquals(admin(one).assignments(), admin(two).assignments(), "both apply what the store holds");
            assertEquals(new Assignment("pro", null), admin(one).assignments().get("key:both"), "the last write wins");
            assertEquals(Optional.of("pro"), call(one, key("both")).plan());
            assertEquals(Optional.of("unlimited"), call(one, key("b299")).plan());
            assertEquals(Optional.of("unlimited"), call(two, key("b0")).plan());
        }
    }

    /**
     * Redis restarts without persistence and loses the shared settings; changes made after it are numbered anew.
     * An instance holding a version from before reads every field once, however many changes followed the loss.
     */
    @Test
    void changesMadeAfterTheStoreLostTheSettingsReachAnInstanceHoldingAnOlderVersion() {
        try (RedisProcess redis = RedisProcess.start();
             Limiter one = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock);
             Limiter two = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock)) {
            for (int i = 0; i < 3; i++) {
                admin(one).assign("key:before" + i, "pro", null, "ops");
            }
            fleet(two).poll();
            assertEquals(Optional.of("pro"), call(two, key("before2")).plan());

            redis.restart();
            // once reconnected: as many changes after the loss as before it, then one more (numbered from 1, the
            // versions would pass the one held)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try {
                    admin(one).assign("key:after0", "unlimited", null, "ops");
                    break;
                } catch (IllegalStateException notYet) {
                    assertTrue(System.nanoTime() < deadline, "not reconnected within 30 s: " + notYet);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
            }
            for (int i = 1; i < 4; i++) {
                admin(one).assign("key:after" + i, "unlimited", null, "ops");
            }
            // the second instance reconnects in its own time: it polls until it reads the store
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Optional.of("unlimited").equals(call(two, key("after3")).plan())) {
                assertTrue(System.nanoTime() < deadline, "the last change after the loss not read within 30 s");
                fleet(two).poll();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            assertEquals(Optional.of("unlimited"), call(two, key("after0")).plan(), "the first change after the loss");
            assertEquals(admin(one).assignments(), admin(two).assignments(), "both apply what the store holds");
        }
    }

    @Test
    void anAssignmentWrittenByAnEarlierReleaseIsAppliedAtTheNextPoll() {
        try (RedisProcess redis = RedisProcess.start();
             Limiter one = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock)) {
            RedisClient client = RedisClient.create(redis.uri());
            try (StatefulRedisConnection<String, String> earlier = client.connect()) {
                admin(one).assign("key:new", "pro", null, "ops");
                String settings = new KeyCodec(one.settings().keyPrefix()).sharedKey("settings");
                // as an earlier release writes: the field, then the version
                earlier.sync().hset(settings, "key:old", "blocked|");
                earlier.sync().hincrby(settings, SharedState.VERSION, 1);
                admin(one).assign("key:newer", "unlimited", null, "ops");
            } finally {
                client.shutdown();
            }
            fleet(one).poll();
            assertTrue(call(one, key("old")).isBlocked(), "the gap in what changed makes it read every field");
            assertEquals(Optional.of("pro"), call(one, key("new")).plan());
            assertEquals(Optional.of("unlimited"), call(one, key("newer")).plan());
        }
    }

    @Test
    void assignmentsAndOverridesReachAnotherInstanceOverARedisCluster() {
        try (RedisClusterProcess cluster = RedisClusterProcess.start();
             Limiter one = FleetInstances.start(RedisStores.open(cluster.seeds(), true, Duration.ofSeconds(5)), clock);
             Limiter two = FleetInstances.start(RedisStores.open(cluster.seeds(), true, Duration.ofSeconds(5)), clock)) {
            admin(one).assign("key:abuser", "blocked", null, "ops");
            admin(one).assign("ip:198.51.100.0/24", "unlimited", null, "ops");
            admin(one).override(FleetInstances.BUCKET, "", List.of(Rate.of(1, Duration.ofMinutes(1))), "ops");
            fleet(two).poll();
            assertTrue(call(two, key("abuser")).isBlocked());
            assertEquals(Optional.of("unlimited"), call(two, new TestCaller("198.51.100.9", null, Map.of())).plan());
            assertTrue(call(two, key("someone")).allowed());
            assertFalse(call(two, key("someone")).allowed(), "the override: 1 a minute");

            admin(two).unassign("key:abuser", "ops");
            fleet(one).poll();
            assertFalse(call(one, key("abuser")).isBlocked());
        }
    }
}
