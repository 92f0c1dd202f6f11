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
    protected Store store() {
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
