package io.github.throttle.redis;

import io.github.throttle.CallEnding;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.Took;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Taken;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No call the library builds fails the script: random calls mixing every kind (fixed and sliding windows, ring and
 * chain, calls that may wait, seats), weights from 0 to the limit, limits of one key sharing a window (one count),
 * keys shared between calls, reports, and give-backs of what allowed calls took, in batches of 1 to 64 through the
 * group commit, decided by the script and by the embedded store in the same order: never an error, the same answers.
 */
class MixedCallsAgreeTest {

    private static final long DAY = 86_400_000L;

    /** Limits of the pool; a limit's index is its index among the caller's limits. Pairs 0/1 and 5/6 share a window. */
    private static final Limit[] POOL = {
            Limit.fixed(3, 1000),
            Limit.fixed(5, 1000),
            Limit.of(5, 2000, 500),
            Limit.of(4, 60_000, 1000),
            Limit.of(6, 120_000, 100),
            Limit.inFlight(2, 5000, "seats"),
            Limit.inFlight(3, 5000, "more-seats"),
    };

    @Test
    void randomMixedCallsInBatchesOfOneToSixtyFourNeverFailTheScriptAndAgreeWithTheEmbeddedStore() {
        long seed = Long.getLong("throttle.seed", System.nanoTime());
        Random rnd = new Random(seed);
        long now = 1_763_800_000_000L + rnd.nextInt(1_000_000);
        MutableClock clock = new MutableClock(now);
        int calls = 0;
        int allowed = 0;
        int reserved = 0;
        int free = 0;
        int shared = 0;
        int givenBack = 0;
        List<StoreCall> taken = new ArrayList<>();
        List<StoreReply> takenReplies = new ArrayList<>();
        try (RedisProcess redis = RedisProcess.start();
             RedisClient client = RedisClient.create(redis.uri());
             StatefulRedisConnection<String, String> connection = client.connect();
             MemoryStore inMemory = new MemoryStore(clock, 7 * DAY)) {
            HeldRuns runs = new HeldRuns(connection);
            GroupCommit commit = new GroupCommit(runs::send, 7 * DAY, Duration.ofSeconds(1));
            for (int round = 0; round < 250; round++) {
                int size = 1 + rnd.nextInt(GroupCommit.MAX_BATCH);
                CompletableFuture<Void> hold = new CompletableFuture<>();
                runs.hold = hold;
                List<StoreCall> batch = new ArrayList<>();
                for (int n = 0; n <= size; n++) {
                    now += rnd.nextInt(5) == 0 ? rnd.nextInt(2500) : rnd.nextInt(40);
                    batch.add(randomCall(rnd, now));
                }
                // the first call is in flight (held); the others queue behind it and go in one run
                List<CompletableFuture<StoreReply>> replies = new ArrayList<>();
                for (StoreCall call : batch) {
                    replies.add(commit.decide(call));
                }
                hold.complete(null);
                for (int n = 0; n < batch.size(); n++) {
                    StoreCall call = batch.get(n);
                    clock.set(call.nowMillis());
                    StoreReply expected = inMemory.decideNow(call);
                    StoreReply actual = replies.get(n).join();
                    int at = n;
                    assertEquals(expected, actual, () -> "call " + at + " of " + batch.size() + ": " + describe(call) + " (seed " + seed + ")");
                    calls++;
                    if (actual.allowed()) {
                        allowed++;
                        reserved += actual.delayMillis() > 0 ? 1 : 0;
                        if (call.record()) {
                            taken.add(call);
                            takenReplies.add(actual);
                        }
                    }
                    free += call.record() && weighsNothingSomewhere(call) ? 1 : 0;
                    shared += sharesACount(call) ? 1 : 0;
                }
                // some allowed calls end: what they may give back goes back through both stores
                while (!taken.isEmpty() && rnd.nextInt(3) != 0) {
                    int i = rnd.nextInt(taken.size());
                    StoreCall ended = taken.remove(i);
                    StoreReply reply = takenReplies.remove(i);
                    // what a success gives back, or the whole call undone
                    Took back = rnd.nextBoolean() ? Took.of(ended, reply).only(EnumSet.of(CallEnding.Part.WEIGHT,
                            CallEnding.Part.SEATS)) : Took.of(ended, reply);
                    if (back.isEmpty()) {
                        continue;
                    }
                    inMemory.giveBack(back).toCompletableFuture().join();
                    SlidingWindowScript.Run refund = new SlidingWindowScript.Run(7 * DAY).refund(back);
                    ScriptRuns.run(connection.async(), refund.keys(), refund.args()).toCompletableFuture().join();
                    givenBack++;
                }
            }
        }
        System.out.println("mixed calls: " + calls + " decided, " + allowed + " allowed, " + reserved + " reserved, " + free
                + " weighing 0 somewhere, " + shared + " sharing a count, " + givenBack + " given back (seed " + seed + ")");
        assertTrue(calls > 4000 && allowed > 500 && calls - allowed > 500 && reserved > 20 && free > 200 && shared > 200
                && givenBack > 100, "every kind met (seed " + seed + ")");
    }

    private static StoreCall randomCall(Random rnd, long now) {
        boolean record = rnd.nextInt(10) != 0;
        StoreCall.Builder b = StoreCall.builder(now, record);
        if (record && rnd.nextBoolean()) {
            b.maxWait(rnd.nextInt(4000));
        }
        int keys = 1 + rnd.nextInt(3);
        long[] weights = new long[POOL.length];
        for (int i = 0; i < POOL.length; i++) {
            // a weigher's answer for this call: one per limit, whatever the identity; 0 a fifth of the time
            weights[i] = rnd.nextInt(5) == 0 ? 0 : 1 + rnd.nextInt((int) Math.min(POOL[i].limit(), 3));
        }
        for (int k = 0; k < keys; k++) {
            String key = "mixed:" + rnd.nextInt(4);
            int limits = 1 + rnd.nextInt(3);
            for (int j = 0; j < limits; j++) {
                int i = rnd.nextInt(POOL.length);
                b.add(key, POOL[i], weights[i], i, rnd.nextInt(3) == 0);
            }
        }
        return b.build();
    }

    private static boolean weighsNothingSomewhere(StoreCall call) {
        for (int p = 0; p < call.pairCount(); p++) {
            if (call.limitWeight(p) == 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean sharesACount(StoreCall call) {
        for (int p = 0; p < call.pairCount(); p++) {
            if (call.sharesCountWith(p) >= 0) {
                return true;
            }
        }
        return false;
    }

    private static String describe(StoreCall call) {
        StringBuilder s = new StringBuilder(call.record() ? "record" : "report").append(" wait ").append(call.maxWaitMillis());
        for (int p = 0; p < call.pairCount(); p++) {
            s.append(" | ").append(call.key(keyOf(call, p))).append(' ').append(call.limit(p)).append(" w=").append(call.limitWeight(p));
        }
        return s.toString();
    }

    private static int keyOf(StoreCall call, int pair) {
        int k = 0;
        while (call.firstPair(k + 1) <= pair) {
            k++;
        }
        return k;
    }
}
