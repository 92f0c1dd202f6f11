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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

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
             Store store = RedisStores.open(redis.uri(), false, Duration.ofSeconds(2))) {
            // the timeout is short for the failover; the first call (through the sentinel, connecting, loading the
            // script) may take longer on a loaded machine: a report, which records nothing, is asked until answered
            await("the store answers", () -> report(store, key, limit, at) != null, redis);
            for (int i = 0; i < 10; i++) {
                StoreReply r = decide(store, key, limit, at + i);
                assertTrue(r.allowed());
                assertEquals(99 - i, r.remaining(0));
            }
            assertEquals(redis.primary().port(), redis.primaryPort());
            RedisClient client = RedisClient.create();
            try (StatefulRedisConnection<String, String> primary = client.connect(io.lettuce.core.RedisURI.create(redis.primary().uri()))) {
                // the ten calls reached the replica before the crash
                assertEquals(1L, primary.sync().waitForReplication(1, 30_000));
            } finally {
                client.shutdown();
            }

            long killedAt = System.nanoTime();
            redis.primary().kill();
            // the sentinel declares the primary down after DOWN_AFTER_MILLIS and promotes the replica
            long failedOverAt = await("the sentinel names the replica", () -> redis.primaryPort() == redis.replica().port(),
                    redis);
            // the store finds the new primary by itself
            AtomicReference<StoreReply> first = new AtomicReference<>();
            AtomicInteger failed = new AtomicInteger();
            long recoveredAt = await("a call is counted again", () -> {
                try {
                    first.set(decide(store, key, limit, at + 100));
                    return true;
                } catch (CompletionException e) {
                    failed.incrementAndGet();
                    return false;
                }
            }, redis);
            long failoverMillis = TimeUnit.NANOSECONDS.toMillis(failedOverAt - killedAt);
            long resumedMillis = TimeUnit.NANOSECONDS.toMillis(recoveredAt - failedOverAt);
            System.out.println("sentinel failover: primary killed, replica promoted after " + failoverMillis
                    + " ms (down-after " + RedisSentinelProcess.DOWN_AFTER_MILLIS + " ms); first call counted "
                    + resumedMillis + " ms later; " + failed + " calls failed meanwhile (allowed unmetered by default)");

            assertNotEquals(redis.primary().port(), redis.primaryPort());
            // The store asks the sentinel again every 250 ms at most (ClientSetup.RECONNECT_AT_LEAST_EVERY); 5 s is
            // the margin a loaded machine needs, and still short of the waits of Lettuce's default back-off (up to 30 s).
            assertTrue(resumedMillis < 5_000, "counting resumed " + resumedMillis + " ms after the failover");
            assertTrue(first.get().allowed());
            assertEquals(89, first.get().remaining(0), "the replicated counts survived the failover");
            assertFalse(redis.primary().isAlive());
        }
    }

    /**
     * Checks {@code condition} every 20 ms until it holds, for at most 30 s (only a real fault takes that long);
     * returns when it held ({@link System#nanoTime()}).
     */
    private static long await(String what, BooleanSupplier condition, RedisSentinelProcess redis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return System.nanoTime();
                }
            } catch (RuntimeException e) {
                // the sentinel is busy failing over: ask again
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what + "; sentinel log:\n" + redis.sentinelLog());
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static StoreReply report(Store store, String key, Limit limit, long at) {
        return store.decide(StoreCall.builder(at, false).add(key, limit, 1, 0).build()).toCompletableFuture().join();
    }

    private static StoreReply decide(Store store, String key, Limit limit, long at) {
        StoreCall call = StoreCall.builder(at, true).add(key, limit, 1, 0).build();
        return store.decide(call).toCompletableFuture().join();
    }
}
