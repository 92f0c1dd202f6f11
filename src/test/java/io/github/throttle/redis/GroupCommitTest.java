package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group commit against a real Redis: the runs are sent by the test, which holds one in flight while calls queue
 * behind it, so that each following run carries a batch of a chosen size.
 */
class GroupCommitTest {

    private static final long DAY = 86_400_000L;

    /**
     * The differential test under batching: for each batch size from 1 to 64, a lone call is held in flight
     * while that many random calls queue (several identities, limits, weights, reports, the clock moving between
     * them); then they go in one run. Every answer equals the embedded store's for the same calls in the same order.
     */
    @Test
    void batchesOfOneToSixtyFourDecideExactlyAsTheEmbeddedStoreDecidesTheirCallsOneByOne() {
        long seed = Long.getLong("throttle.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Limit[][] plans = {
                {Limit.of(3, 1000, 100), Limit.of(20, 60_000, 1000)},
                {Limit.of(2, 50, 7)},
                {Limit.of(10, 2000, 2000)},
                {Limit.of(5, 600_000, 1000), Limit.of(40, 3_600_000, 1000)},
        };
        long now = 1_763_800_000_000L + rnd.nextInt(1_000_000);
        MutableClock clock = new MutableClock(now);
        int allowed = 0;
        int denied = 0;
        try (RedisProcess redis = RedisProcess.start();
             RedisClient client = RedisClient.create(redis.uri());
             StatefulRedisConnection<String, String> connection = client.connect();
             MemoryStore inMemory = new MemoryStore(clock, 7 * DAY)) {
            HeldRuns runs = new HeldRuns(connection);
            GroupCommit commit = new GroupCommit(runs::send, 7 * DAY, Duration.ofSeconds(1));
            for (int size = 1; size <= GroupCommit.MAX_BATCH; size++) {
                CompletableFuture<Void> hold = new CompletableFuture<>();
                runs.hold = hold;
                List<StoreCall> calls = new ArrayList<>();
                for (int n = 0; n <= size; n++) {
                    now += rnd.nextInt(4) == 0 ? rnd.nextInt(3000) : rnd.nextInt(3);
                    Limit[] plan = plans[rnd.nextInt(plans.length)];
                    StoreCall.Builder b = StoreCall.builder(now, rnd.nextInt(10) != 0);
                    String key = "batch:" + rnd.nextInt(5);
                    for (int i = 0; i < plan.length; i++) {
                        b.add(key, plan[i], 1 + (rnd.nextInt(3) == 0 ? rnd.nextInt(2) : 0), i);
                    }
                    if (rnd.nextInt(4) == 0) {
                        // a second identity in the same call
                        b.add("batch:other:" + rnd.nextInt(3), plan[0], 1, 0);
                    }
                    calls.add(b.build());
                }
                // the first call is in flight (held); the others queue behind it
                List<CompletableFuture<StoreReply>> replies = new ArrayList<>();
                for (StoreCall call : calls) {
                    replies.add(commit.decide(call));
                }
                hold.complete(null);
                for (int n = 0; n < calls.size(); n++) {
                    StoreCall call = calls.get(n);
                    clock.set(call.nowMillis());
                    StoreReply expected = inMemory.decideNow(call);
                    StoreReply actual = replies.get(n).join();
                    int at = n;
                    int batch = size;
                    assertEquals(expected, actual, () -> "call " + at + " of a batch of " + batch + " (seed " + seed + ")");
                    if (expected.allowed()) {
                        allowed++;
                    } else {
                        denied++;
                    }
                }
            }
            List<Integer> expectedSizes = new ArrayList<>();
            for (int size = 1; size <= GroupCommit.MAX_BATCH; size++) {
                expectedSizes.add(1);
                expectedSizes.add(size);
            }
            assertEquals(expectedSizes, runs.sizes, "a lone call, then the calls that queued behind it, for each size");
        }
        assertTrue(allowed > 200 && denied > 200, "allowed " + allowed + ", denied " + denied + " (seed " + seed + ")");
    }

    @Test
    void aLoneCallGoesAtOnceAndNoRunCarriesMoreThanSixtyFourCalls() {
        try (RedisProcess redis = RedisProcess.start();
             RedisClient client = RedisClient.create(redis.uri());
             StatefulRedisConnection<String, String> connection = client.connect()) {
            HeldRuns runs = new HeldRuns(connection);
            GroupCommit commit = new GroupCommit(runs::send, 0, Duration.ofSeconds(1));
            Limit limit = Limit.of(1000, 60_000, 1000);
            StoreCall lone = StoreCall.builder(-1, true).add("lone", limit, 1, 0).build();
            assertTrue(commit.decide(lone).join().allowed());
            CompletableFuture<Void> hold = new CompletableFuture<>();
            runs.hold = hold;
            List<CompletableFuture<StoreReply>> replies = new ArrayList<>();
            for (int n = 0; n < 1 + 150; n++) {
                replies.add(commit.decide(lone));
            }
            hold.complete(null);
            for (CompletableFuture<StoreReply> r : replies) {
                assertTrue(r.join().allowed());
            }
            assertEquals(List.of(1, 1, 64, 64, 22), runs.sizes);
        }
    }

    /** A failed run fails each of its calls; a call answered (timed out) while it queued is left out of the next run. */
    @Test
    void aFailedRunFailsEachOfItsCallsAndACallAnsweredWhileQueuedIsLeftOut() {
        List<Integer> sizes = new ArrayList<>();
        CompletableFuture<List<Object>> inFlight = new CompletableFuture<>();
        GroupCommit commit = new GroupCommit((run, waitMillis) -> {
            sizes.add(run.size());
            return new ReplicaAcks.Sent(sizes.size() == 1 ? inFlight
                    : CompletableFuture.failedFuture(new IllegalStateException("Redis is gone")), null);
        }, 0, Duration.ofSeconds(1));
        StoreCall call = StoreCall.builder(-1, true).add("k", Limit.of(5, 1000, 100), 1, 0).build();
        CompletableFuture<StoreReply> lone = commit.decide(call);
        List<CompletableFuture<StoreReply>> queued = new ArrayList<>();
        for (int n = 0; n < 5; n++) {
            queued.add(commit.decide(call));
        }
        // one queued call reaches its timeout while the run in flight has not ended
        queued.get(2).orTimeout(1, TimeUnit.NANOSECONDS);
        ExecutionException timedOut = assertThrows(ExecutionException.class, () -> queued.get(2).get(30, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, timedOut.getCause());
        inFlight.completeExceptionally(new IllegalStateException("Redis is gone"));
        for (CompletableFuture<StoreReply> f : List.of(lone, queued.get(0), queued.get(1), queued.get(3), queued.get(4))) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
        }
        assertEquals(List.of(1, 4), sizes, "the run in flight, then the four calls still waiting");
        // nothing is left in flight: the next call goes at once
        assertTrue(commit.decide(call).isCompletedExceptionally());
        assertEquals(List.of(1, 4, 1), sizes);
    }
}
