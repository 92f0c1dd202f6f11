package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.testing.RedisSentinelProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The standalone store through a {@code redis-sentinel://} URI: it counts on the primary and follows a failover. */
class RedisSentinelStoreTest {

    private static final long HOUR = 3_600_000;

    @Test
    void limitingWorksThroughTheSentinelAndResumesSoonAfterAFailover() throws Exception {
        Limit limit = Limit.fixed(100, HOUR);
        String key = "sentinel:" + System.nanoTime();
        long at = 1_763_800_000_000L;
        try (RedisSentinelProcess redis = RedisSentinelProcess.start();
             Store store = RedisStores.open(redis.uri(), false, Duration.ofMillis(500))) {
            for (int i = 0; i < 10; i++) {
                StoreReply r = decide(store, key, limit, at + i);
                assertTrue(r.allowed());
                assertEquals(99 - i, r.remaining(0));
            }
            assertEquals(redis.primary().port(), redis.primaryPort());
            RedisClient client = RedisClient.create();
            try (StatefulRedisConnection<String, String> primary = client.connect(io.lettuce.core.RedisURI.create(redis.primary().uri()))) {
                // the ten calls reached the replica before the crash
                assertEquals(1L, primary.sync().waitForReplication(1, 5000));
            } finally {
                client.shutdown();
            }

            AtomicLong failedOverAt = new AtomicLong();
            Thread watcher = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        if (redis.primaryPort() == redis.replica().port()) {
                            failedOverAt.set(System.nanoTime());
                            return;
                        }
                    } catch (RuntimeException e) {
                        // the sentinel is busy failing over: ask again
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
            });
            long killedAt = System.nanoTime();
            redis.primary().kill();
            watcher.start();

            int failed = 0;
            StoreReply first = null;
            long deadline = killedAt + TimeUnit.SECONDS.toNanos(30);
            while (first == null && System.nanoTime() < deadline) {
                try {
                    first = decide(store, key, limit, at + 100);
                } catch (CompletionException e) {
                    failed++;
                    // pace the retries: the store rejects at once while disconnected
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                }
            }
            long recoveredAt = System.nanoTime();
            watcher.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(first != null, "no call succeeded within 30 s of the crash; sentinel log:\n" + redis.sentinelLog());
            assertTrue(failedOverAt.get() != 0, "the sentinel never named the replica");
            long failoverMillis = TimeUnit.NANOSECONDS.toMillis(failedOverAt.get() - killedAt);
            long recoveredMillis = TimeUnit.NANOSECONDS.toMillis(recoveredAt - killedAt);
            System.out.println("sentinel failover: primary killed, replica promoted after " + failoverMillis
                    + " ms (down-after " + RedisSentinelProcess.DOWN_AFTER_MILLIS + " ms); first call counted after "
                    + recoveredMillis + " ms; " + failed + " calls failed meanwhile (allowed unmetered by default)");

            assertNotEquals(redis.primary().port(), redis.primaryPort());
            assertTrue(recoveredMillis <= failoverMillis + 1000,
                    "counting resumed " + (recoveredMillis - failoverMillis) + " ms after the failover");
            assertTrue(first.allowed());
            assertEquals(89, first.remaining(0), "the replicated counts survived the failover");
            assertFalse(redis.primary().isAlive());
        }
    }

    private static StoreReply decide(Store store, String key, Limit limit, long at) {
        StoreCall call = StoreCall.builder(at, true).add(key, limit, 1, 0).build();
        return store.decide(call).toCompletableFuture().join();
    }
}
