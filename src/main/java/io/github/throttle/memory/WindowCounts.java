package io.github.throttle.memory;

import io.github.throttle.engine.Limit;

/**
 * What one identity has counted in one window: the total, the newest sub-bucket holding weight and, once a
 * second one has started, the older sub-buckets still holding weight. Sub-buckets that hold no weight are
 * not kept, so the work of a call is bounded by the sub-buckets that leave the window, never by the time
 * elapsed since the last call. Weights fit in an {@code int}: a window never counts more than its limit
 * ({@link Limit#MAX_LIMIT}). Guarded by the lock of its identity.
 */
final class WindowCounts {

    /** The window counted (only its duration and precision matter: {@link Limit#sameWindow}). */
    private final Limit window;
    private int counted;
    private long newest;
    private int newestWeight;
    /** Older sub-buckets holding weight; null until a second sub-bucket starts. */
    private SubBucketQueue older;

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

    private int olderCount() {
        return older == null ? 0 : older.size();
    }

    /** How many of the older sub-buckets are before {@code trim} (the newest one never is). */
    int leaving(long trim) {
        int i = 0;
        while (i < olderCount() && older.subBucket(i) < trim) {
            i++;
        }
        return i;
    }

    /** Weight of the {@code n} oldest sub-buckets. */
    long weightOfOldest(int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += older.weight(i);
        }
        return sum;
    }

    /** The {@code i}-th oldest sub-bucket holding weight; the newest past the older ones. */
    long subBucket(int i) {
        return i < olderCount() ? older.subBucket(i) : newest;
    }

    /** Starting from the {@code skip}-th oldest, the sub-bucket whose leaving frees at least {@code need}. */
    long subBucketFreeing(int skip, long need) {
        long freed = 0;
        for (int i = skip; i < olderCount(); i++) {
            freed += older.weight(i);
            if (freed >= need) {
                return older.subBucket(i);
            }
        }
        return newest;
    }

    /** Forgets everything counted. */
    void clear() {
        counted = 0;
        if (older != null) {
            older.clear();
        }
    }

    /** Forgets the {@code n} oldest sub-buckets (they have left the window). */
    void drop(int n) {
        if (n > 0) {
            counted -= (int) weightOfOldest(n);
            older.removeOldest(n);
        }
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
            newestWeight = (int) weight;
        } else if (b == newest) {
            newestWeight += (int) weight;
            started = false;
        } else {
            if (older == null) {
                older = new SubBucketQueue();
            }
            if (newestWeight > 0) {
                // a newest sub-bucket whose weight was all given back holds none
                older.add(newest, newestWeight);
            }
            newest = b;
            newestWeight = (int) weight;
        }
        counted += (int) weight;
        return started;
    }

    /**
     * Takes up to {@code weight} back from sub-bucket {@code b}, if it still holds weight; an older sub-bucket
     * left with none is forgotten (so the oldest kept always holds weight).
     */
    void giveBack(long b, long weight) {
        if (counted == 0 || b > newest) {
            return;
        }
        if (b == newest) {
            int take = (int) Math.min(weight, newestWeight);
            newestWeight -= take;
            counted -= take;
            return;
        }
        int i = older == null ? -1 : older.indexOf(b);
        if (i < 0) {
            return;
        }
        int held = (int) older.weight(i);
        int take = (int) Math.min(weight, held);
        counted -= take;
        if (take == held) {
            older.remove(i);
        } else {
            older.setWeight(i, held - take);
        }
    }
}
