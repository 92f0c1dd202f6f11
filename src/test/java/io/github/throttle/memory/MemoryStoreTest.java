package io.github.throttle.memory;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreContract;
import io.github.throttle.testing.MutableClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryStoreTest extends StoreContract {

    private final MutableClock clock = new MutableClock(0);
    private final MemoryStore store = new MemoryStore(clock);

    @Override
    public Store store() {
        return store;
    }

    @Test
    void idleIdentitiesAreEvictedSoMemoryStaysBounded() {
        Limit perMinute = Limit.of(10, 60_000, 10_000);
        Limit perSecond = Limit.fixed(5, 1000);
        long t = 1_000_000_000L;
        int maxSeen = 0;
        // a stream of new identities, 1,000 per second of store time, for 5 minutes
        for (int s = 0; s < 300; s++) {
            for (int i = 0; i < 1000; i++) {
                String key = "id-" + s + "-" + i;
                StoreCall call = StoreCall.builder(t + s * 1000L + i, true)
                        .add(key, perMinute, 1, 0).add(key, perSecond, 1, 1).build();
                assertTrue(store.decideNow(call).allowed());
            }
            clock.set(t + s * 1000L + 999);
            store.evictExpired(clock.millis());
            maxSeen = Math.max(maxSeen, store.size());
        }
        // only identities seen within the last minute are held
        assertTrue(maxSeen <= 61_000, "held " + maxSeen);
        store.evictExpired(t + 300_000 + 60_000);
        assertEquals(0, store.size());
    }

    /**
     * The bound of docs/production-redis.md: the store's own sweeps (run here on the caller's thread, so the test
     * sees where they end) keep at most twice the identities whose weight is still inside their window.
     */
    @Test
    void aMillionFreshIdentitiesAreHeldWithinTheDocumentedBound() {
        Limit perMinute = Limit.of(120, 60_000, 1000);
        Limit perSecond = Limit.fixed(10, 1000);
        MutableClock time = new MutableClock(1_000_000_000L);
        MemoryStore flooded = new MemoryStore(time, 0, Runnable::run);
        // one new identity per millisecond of store time: 60,000 of them inside the minute at any time
        long live = 60_000 + 1;
        int held = 0;
        for (int i = 0; i < 1_000_000; i++) {
            time.advanceMillis(1);
            String key = "flood-" + i;
            StoreCall call = StoreCall.builder(time.millis(), true).add(key, perMinute, 1, 0).add(key, perSecond, 1, 1).build();
            assertTrue(flooded.decideNow(call).allowed());
            held = Math.max(held, flooded.size());
        }
        System.out.println("memory store: 1,000,000 fresh identities, at most " + held + " held (" + live + " inside their window)");
        assertTrue(held <= 2 * live, "held " + held);
        assertTrue(held >= live, "an identity inside its window was dropped: held " + held);
        StoreCall last = StoreCall.builder(time.millis(), false).add("flood-999999", perMinute, 1, 0).build();
        assertEquals(119, flooded.decideNow(last).remaining(0), "the newest identity keeps its count");
    }

    @Test
    void sixtyFourThreadsOverSeveralLimitsAndIdentitiesLoseNoUpdate() throws Exception {
        Limit perSecond = Limit.of(40, 1000, 100);
        Limit perHour = Limit.of(500, 3_600_000, 60_000);
        String[] ids = {"a", "b", "c", "d"};
        long[][] charged = new long[64][ids.length];
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(64);
        java.util.List<java.util.concurrent.Future<?>> fs = new java.util.ArrayList<>();
        for (int t = 0; t < 64; t++) {
            int me = t;
            fs.add(pool.submit(() -> {
                java.util.Random rnd = new java.util.Random(me);
                start.await();
                for (int i = 0; i < 300; i++) {
                    // one or two identities per call, time moving through 3 seconds
                    int x = rnd.nextInt(ids.length);
                    int y = rnd.nextBoolean() ? x : rnd.nextInt(ids.length);
                    long w = 1 + rnd.nextInt(3);
                    long at = 10_000 + rnd.nextInt(3000);
                    StoreCall.Builder b = StoreCall.builder(at, true);
                    b.add(ids[x], perSecond, w, 0).add(ids[x], perHour, w, 1);
                    if (y != x) {
                        b.add(ids[y], perSecond, w, 0).add(ids[y], perHour, w, 1);
                    }
                    if (store.decideNow(b.build()).allowed()) {
                        charged[me][x] += w;
                        if (y != x) {
                            charged[me][y] += w;
                        }
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (var f : fs) {
            f.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        pool.shutdown();
        for (int i = 0; i < ids.length; i++) {
            long total = 0;
            for (long[] c : charged) {
                total += c[i];
            }
            // everything the threads were told was allowed is counted in the hour, and nothing else
            long remaining = store.decideNow(StoreCall.builder(13_000, false).add(ids[i], perHour, 0, 0).build()).remaining(0);
            assertEquals(perHour.limit() - total, remaining, "identity " + ids[i]);
            assertTrue(total <= perHour.limit());
        }
    }

    @Test
    void anIdentityIsKeptWhileItsLongestWindowHoldsWeight() {
        Limit perSecond = Limit.fixed(5, 1000);
        Limit perHour = Limit.of(100, 3_600_000, 60_000);
        StoreCall call = StoreCall.builder(0, true).add("k", perSecond, 1, 0).add("k", perHour, 1, 1).build();
        store.decideNow(call);
        assertEquals(0, store.evictExpired(3_599_999));
        assertEquals(1, store.size());
        assertEquals(1, store.evictExpired(3_600_000));
    }
}
