package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls that wait, through the Redis script and the embedded store side by side with one injected clock: the
 * same reservations (delays, figures, sub-buckets) for every call, and what the reservations promise, checked on
 * the calls' own times (the time each proceeds: its now plus its delay): no window of any limit ever admits more
 * than its limit, and reserved times never decrease in reservation order.
 */
class ReservationsAgreeTest {

    private static final long DAY = 86_400_000L;

    /** A fixed window, a sliding one of 5 sub-buckets, and two limits of different precisions together. */
    private static final List<Limit[]> PLANS = List.of(
            new Limit[] {Limit.fixed(5, 1000)},
            new Limit[] {Limit.of(5, 1000, 200)},
            new Limit[] {Limit.of(3, 300, 100), Limit.of(10, 2000, 500)});

    @Test
    void waitingCallsAreReservedAlikeAndNoWindowEverAdmitsMoreThanItsLimit() {
        long seed = Long.getLong("throttle.seed", System.nanoTime());
        Random rnd = new Random(seed);
        long now = 1_763_800_000_000L + rnd.nextInt(1_000_000);
        MutableClock clock = new MutableClock(now);
        // per identity and plan: the times calls proceed at, with their weights
        Map<String, List<long[]>> admitted = new HashMap<>();
        Map<String, Long> lastReserved = new HashMap<>();
        int reserved = 0;
        int denied = 0;
        try (RedisProcess redis = RedisProcess.start();
             RedisStore viaRedis = new RedisStore(RedisURI.create(redis.uri()), Duration.ofSeconds(10), 7 * DAY);
             MemoryStore inMemory = new MemoryStore(clock, 7 * DAY)) {
            for (int n = 0; n < 6000; n++) {
                now += rnd.nextInt(8) == 0 ? rnd.nextInt(1500) : rnd.nextInt(60);
                clock.set(now);
                int planNo = rnd.nextInt(PLANS.size());
                Limit[] plan = PLANS.get(planNo);
                String key = "wait:" + planNo + ":" + rnd.nextInt(3);
                long weight = rnd.nextInt(4) == 0 ? 2 : 1;
                StoreCall.Builder b = StoreCall.builder(now, true).maxWait(rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(2500));
                for (int i = 0; i < plan.length; i++) {
                    b.add(key, plan[i], weight, i);
                }
                StoreCall call = b.build();
                StoreReply expected = inMemory.decideNow(call);
                StoreReply actual = viaRedis.decide(call).toCompletableFuture().join();
                int callNo = n;
                long at = now;
                assertEquals(expected, actual, () -> "call " + callNo + " at " + at + " (seed " + seed + ")");
                if (!expected.allowed()) {
                    denied++;
                    continue;
                }
                long proceeds = now + expected.delayMillis();
                admitted.computeIfAbsent(key, k -> new ArrayList<>()).add(new long[] {proceeds, weight});
                if (expected.delayMillis() > 0) {
                    reserved++;
                    long before = lastReserved.getOrDefault(key, Long.MIN_VALUE);
                    assertTrue(proceeds >= before, "call " + n + " reserved at " + proceeds + ", before " + before + " (seed " + seed + ")");
                    lastReserved.put(key, proceeds);
                    assertTrue(expected.delayMillis() <= call.maxWaitMillis(), "waits no longer than it may (seed " + seed + ")");
                }
            }
        }
        for (Map.Entry<String, List<long[]>> e : admitted.entrySet()) {
            Limit[] plan = PLANS.get(Integer.parseInt(e.getKey().split(":")[1]));
            for (Limit l : plan) {
                assertNoWindowOver(l, e.getValue(), e.getKey(), seed);
            }
        }
        assertTrue(reserved > 100 && denied > 30, "reserved " + reserved + ", denied " + denied + " (seed " + seed + ")");
    }

    /** Every window of {@code l} (ending at each sub-bucket a call proceeded in) holds at most its limit. */
    private static void assertNoWindowOver(Limit l, List<long[]> calls, String key, long seed) {
        Map<Long, Long> perSubBucket = new HashMap<>();
        for (long[] c : calls) {
            perSubBucket.merge(l.subBucket(c[0]), c[1], Long::sum);
        }
        for (long end : perSubBucket.keySet()) {
            long sum = 0;
            for (long b = end - l.subBuckets() + 1; b <= end; b++) {
                sum += perSubBucket.getOrDefault(b, 0L);
            }
            long held = sum;
            assertTrue(held <= l.limit(), () -> key + ": the window of " + l + " ending at sub-bucket " + end + " admitted "
                    + held + " (seed " + seed + ")");
        }
    }
}
