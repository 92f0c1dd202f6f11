package io.github.throttle.memory;

import io.github.throttle.engine.Limit;

/**
 * What one identity has counted in one window: the total, the newest sub-bucket holding weight and, once a
 * second one has started, the older sub-buckets still holding weight, oldest first. Sub-buckets that hold
 * no weight are not kept, so the work of a call is bounded by the sub-buckets that leave the window, never
 * by the time elapsed since the last call. Guarded by the lock of its identity.
 */
final class WindowCounts {

    /** The window counted (only its duration and precision matter: {@link Limit#sameWindow}). */
    private final Limit window;
    private long counted;
    private long newest;
    private long newestWeight;
    /**
     * Older sub-buckets holding weight: a ring of (sub-bucket, weight) pairs, {@code olderCount} long from
     * {@code olderStart}, in increasing sub-bucket order; null until a second sub-bucket starts.
     */
    private long[] older;
    private int olderStart;
    private int olderCount;

    WindowCounts(Limit window) {
        this.window = window;
    }

    Limit window() {
        return window;
    }

    /** Weight counted in the window. */
    long counted() {
        return counted;
    }

    /** The newest sub-bucket holding weight (meaningful while {@link #counted()} is above 0). */
    long newest() {
        return newest;
    }

    /** How many of the older sub-buckets are before {@code trim} (the newest one never is). */
    int leaving(long trim) {
        int i = 0;
        while (i < olderCount && olderSubBucket(i) < trim) {
            i++;
        }
        return i;
    }

    /** Weight of the {@code n} oldest sub-buckets. */
    long weightOfOldest(int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += olderWeight(i);
        }
        return sum;
    }

    /** The {@code i}-th oldest sub-bucket holding weight; the newest past the older ones. */
    long subBucket(int i) {
        return i < olderCount ? olderSubBucket(i) : newest;
    }

    /** Starting from the {@code skip}-th oldest, the sub-bucket whose leaving frees at least {@code need}. */
    long subBucketFreeing(int skip, long need) {
        long freed = 0;
        for (int i = skip; i < olderCount; i++) {
            freed += olderWeight(i);
            if (freed >= need) {
                return olderSubBucket(i);
            }
        }
        return newest;
    }

    /** Forgets everything counted. */
    void clear() {
        counted = 0;
        olderStart = 0;
        olderCount = 0;
    }

    /** Forgets the {@code n} oldest sub-buckets (they have left the window). */
    void drop(int n) {
        if (n == 0) {
            return;
        }
        counted -= weightOfOldest(n);
        olderStart = n == olderCount ? 0 : slot(n);
        olderCount -= n;
    }

    /**
     * Records {@code weight} in sub-bucket {@code b} (sub-buckets that left the window are dropped already);
     * returns whether a sub-bucket started, which may move the identity's expiry.
     */
    boolean record(long b, long weight) {
        boolean started = true;
        if (counted == 0) {
            // nothing counted: the window starts again at this sub-bucket
            clear();
            newest = b;
            newestWeight = weight;
        } else if (b == newest) {
            newestWeight += weight;
            started = false;
        } else {
            pushNewestToOlder();
            newest = b;
            newestWeight = weight;
        }
        counted += weight;
        return started;
    }

    private void pushNewestToOlder() {
        int capacity = older == null ? 0 : older.length / 2;
        if (olderCount == capacity) {
            long[] grown = new long[Math.max(4, capacity * 4)];
            for (int i = 0; i < olderCount; i++) {
                grown[i * 2] = olderSubBucket(i);
                grown[i * 2 + 1] = olderWeight(i);
            }
            older = grown;
            olderStart = 0;
        }
        int s = slot(olderCount);
        older[s * 2] = newest;
        older[s * 2 + 1] = newestWeight;
        olderCount++;
    }

    private int slot(int i) {
        int capacity = older.length / 2;
        int s = olderStart + i;
        return s >= capacity ? s - capacity : s;
    }

    private long olderSubBucket(int i) {
        return older[slot(i) * 2];
    }

    private long olderWeight(int i) {
        return older[slot(i) * 2 + 1];
    }
}
