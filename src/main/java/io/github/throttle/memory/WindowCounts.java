package io.github.throttle.memory;

import io.github.throttle.engine.Limit;

/**
 * What one identity has counted in one window: the total, the newest sub-bucket holding weight and, once a
 * second one has started, the older sub-buckets still holding weight. Sub-buckets that hold no weight are
 * not kept, so the work of a call is bounded by the sub-buckets that leave the window, never by the time
 * elapsed since the last call. Weights fit in an {@code int}: a window never counts more than its limit
 * ({@link Limit#MAX_LIMIT}). Guarded by the lock of its identity.
 */
final class WindowCounts extends Counter {

    private int counted;
    private long newest;
    private int newestWeight;
    /**
     * What the window holds besides its newest sub-bucket: the older sub-buckets holding weight and the
     * reservations; null until a second sub-bucket starts or a call waits.
     */
    private WindowRest rest;

    WindowCounts(Limit window) {
        super(window);
    }

    private WindowRest rest() {
        if (rest == null) {
            rest = new WindowRest();
        }
        return rest;
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
        return rest == null ? 0 : rest.size();
    }

    /** How many of the older sub-buckets are before {@code trim} (the newest one never is). */
    int leaving(long trim) {
        int i = 0;
        while (i < olderCount() && rest.subBucket(i) < trim) {
            i++;
        }
        return i;
    }

    /** Weight of the {@code n} oldest sub-buckets. */
    long weightOfOldest(int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += rest.weight(i);
        }
        return sum;
    }

    /** The {@code i}-th oldest sub-bucket holding weight; the newest past the older ones. */
    long subBucket(int i) {
        return i < olderCount() ? rest.subBucket(i) : newest;
    }

    /** Starting from the {@code skip}-th oldest, the sub-bucket whose leaving frees at least {@code need}. */
    long subBucketFreeing(int skip, long need) {
        long freed = 0;
        for (int i = skip; i < olderCount(); i++) {
            freed += rest.weight(i);
            if (freed >= need) {
                return rest.subBucket(i);
            }
        }
        return newest;
    }

    /** Whether the window's reservations are read (the script's header mark). */
    boolean marked() {
        return rest != null && rest.marked;
    }

    /** The time of the latest reservation (meaningful while {@link #marked()}). */
    long lastReserved() {
        return rest == null ? 0 : rest.lastReserved;
    }

    /** Keeps or drops the mark, as a call recorded now finds reservations that count or none. */
    void mark(boolean marked) {
        if (marked || rest != null) {
            rest().marked = marked;
        }
    }

    /** The reserved sub-buckets from {@code from} on that hold weight. */
    Reservations reservedFrom(long from) {
        SubBucketQueue reserved = rest == null ? null : rest.reserved;
        if (reserved == null) {
            return Reservations.NONE;
        }
        long[] b = new long[reserved.size()];
        long[] w = new long[b.length];
        int n = 0;
        for (int i = 0; i < reserved.size(); i++) {
            if (reserved.subBucket(i) >= from && reserved.weight(i) > 0) {
                b[n] = reserved.subBucket(i);
                w[n++] = reserved.weight(i);
            }
        }
        return new Reservations(java.util.Arrays.copyOf(b, n), java.util.Arrays.copyOf(w, n));
    }

    /** Replaces the reservations by {@code kept} and marks the window; the latest reservation is at {@code last}. */
    void reserve(Reservations kept, long last) {
        WindowRest r = rest();
        if (r.reserved == null) {
            r.reserved = new SubBucketQueue();
        }
        r.reserved.clear();
        for (int i = 0; i < kept.blocks().length; i++) {
            r.reserved.add(kept.blocks()[i], kept.weights()[i]);
        }
        r.lastReserved = last;
        r.marked = true;
    }

    /** Takes up to {@code weight} back from the weight reserved in sub-bucket {@code b}, if it is still there. */
    void giveBackReserved(long b, long weight) {
        SubBucketQueue reserved = rest == null ? null : rest.reserved;
        int i = reserved == null ? -1 : reserved.indexOf(b);
        if (i >= 0) {
            long left = Math.max(0, reserved.weight(i) - weight);
            if (left == 0) {
                reserved.remove(i);
            } else {
                reserved.setWeight(i, left);
            }
            // the latest reservation left holds back later callers, not the one given back: no later than the end of
            // the newest sub-bucket still reserved (none left: none)
            long bound = reserved.size() == 0 ? 0 : (reserved.subBucket(reserved.size() - 1) + 1) * window().precisionMillis() - 1;
            rest.lastReserved = Math.min(rest.lastReserved, bound);
        }
    }

    /** The counted sub-buckets holding weight, from the {@code skip}-th oldest on (older ones left the window). */
    Reservations blocksFrom(int skip) {
        int olderKept = Math.max(0, olderCount() - skip);
        long[] b = new long[olderKept + 1];
        long[] w = new long[b.length];
        int n = 0;
        for (int i = skip; i < olderCount(); i++) {
            b[n] = rest.subBucket(i);
            w[n++] = rest.weight(i);
        }
        if (newestWeight > 0) {
            b[n] = newest;
            w[n++] = newestWeight;
        }
        return new Reservations(java.util.Arrays.copyOf(b, n), java.util.Arrays.copyOf(w, n));
    }

    /** Forgets everything counted (reservations are kept). */
    void clear() {
        counted = 0;
        if (rest != null) {
            // the older sub-buckets only: the reservations are kept
            rest.clear();
        }
    }

    /** Forgets the {@code n} oldest sub-buckets (they have left the window). */
    void drop(int n) {
        if (n > 0) {
            counted -= (int) weightOfOldest(n);
            rest.removeOldest(n);
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
            WindowRest older = rest();
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
        int i = rest == null ? -1 : rest.indexOf(b);
        if (i < 0) {
            return;
        }
        int held = (int) rest.weight(i);
        int take = (int) Math.min(weight, held);
        counted -= take;
        if (take == held) {
            rest.remove(i);
        } else {
            rest.setWeight(i, held - take);
        }
    }
}
