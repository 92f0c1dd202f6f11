package io.github.throttle.fleet;

import java.util.HashMap;
import java.util.Map;

/**
 * The most frequent items of a stream in bounded memory (Metwally, Agrawal, El Abbadi: "Space-Saving"): at most
 * {@code capacity} counters. An item not counted yet, when all counters are taken, takes over the smallest
 * counter and adds to it. Exact while no more than {@code capacity} distinct items came; beyond, a count is
 * never below the item's true count and exceeds it by at most the smallest count (at most total / capacity),
 * and every item counted more than total / capacity times is kept.
 */
final class SpaceSaving {

    private final int capacity;
    private final Map<String, long[]> counts;
    private boolean closed;

    SpaceSaving(int capacity) {
        this.capacity = capacity;
        this.counts = new HashMap<>(capacity * 2);
    }

    /** Counts one occurrence; false when the sketch was {@linkplain #close() closed} (nothing counted). */
    synchronized boolean add(String item) {
        if (closed) {
            return false;
        }
        long[] c = counts.get(item);
        if (c != null) {
            c[0]++;
        } else if (counts.size() < capacity) {
            counts.put(item, new long[]{1});
        } else {
            String smallest = null;
            long least = Long.MAX_VALUE;
            for (Map.Entry<String, long[]> e : counts.entrySet()) {
                if (e.getValue()[0] < least) {
                    least = e.getValue()[0];
                    smallest = e.getKey();
                }
            }
            counts.remove(smallest);
            counts.put(item, new long[]{least + 1});
        }
        return true;
    }

    /** Closes the sketch (nothing is counted any more) and returns its counts. */
    synchronized Map<String, Long> close() {
        closed = true;
        Map<String, Long> out = new HashMap<>(counts.size() * 2);
        counts.forEach((item, c) -> out.put(item, c[0]));
        return out;
    }
}
