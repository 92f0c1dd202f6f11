package io.github.throttle.memory;

import java.util.Arrays;
import java.util.List;

/**
 * Weight per sub-bucket of a window that holds reservations (weight recorded ahead of now for calls that wait),
 * as the script's "Reservations" rules read it: sub-buckets and their weights, oldest first.
 *
 * @param blocks  sub-buckets holding weight, oldest first
 * @param weights their weights
 */
record Reservations(long[] blocks, long[] weights) {

    static final Reservations NONE = new Reservations(new long[0], new long[0]);

    boolean isEmpty() {
        return blocks.length == 0;
    }

    long oldest() {
        return blocks[0];
    }

    long newest() {
        return blocks[blocks.length - 1];
    }

    /** Both lists merged, oldest first; a sub-bucket in both sums its weights. */
    Reservations merge(Reservations other) {
        long[] b = new long[blocks.length + other.blocks.length];
        long[] w = new long[b.length];
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < blocks.length || j < other.blocks.length) {
            long y = j >= other.blocks.length || (i < blocks.length && blocks[i] <= other.blocks[j]) ? blocks[i] : other.blocks[j];
            long v = 0;
            if (i < blocks.length && blocks[i] == y) {
                v += weights[i++];
            }
            if (j < other.blocks.length && other.blocks[j] == y) {
                v += other.weights[j++];
            }
            b[n] = y;
            w[n++] = v;
        }
        return new Reservations(Arrays.copyOf(b, n), Arrays.copyOf(w, n));
    }

    /**
     * The fullest window of {@code k} sub-buckets holding sub-bucket {@code b}: those ending at {@code b} and at
     * each later sub-bucket holding weight, before {@code b + k}.
     */
    long peak(long k, long b) {
        long best = window(k, b);
        for (long e : blocks) {
            if (e > b && e < b + k) {
                best = Math.max(best, window(k, e));
            }
        }
        return best;
    }

    private long window(long k, long end) {
        long sum = 0;
        for (int j = 0; j < blocks.length; j++) {
            if (blocks[j] > end - k && blocks[j] <= end) {
                sum += weights[j];
            }
        }
        return sum;
    }

    /**
     * One window of a call, for its reservation: its weight per sub-bucket, its sub-buckets' length {@code p} and
     * count {@code k}, its limit, the call's weight and the sub-bucket {@code base} a call would be recorded in now.
     */
    record Window(Reservations weights, long p, long k, long limit, long w, long base) {

        /** The sub-bucket a call would be recorded in at time {@code t}: its own, unless t's is later. */
        long recordedAt(long t) {
            return Math.max(Math.floorDiv(t, p), base);
        }

        boolean fitsAt(long t) {
            return weights.peak(k, recordedAt(t)) + w <= limit;
        }
    }

    /**
     * The earliest time {@code t}, {@code from <= t <= to}, at which every window allows its weight, or -1; it is
     * {@code from} or the end of a window holding a sub-bucket with weight: the only times an answer can change.
     */
    static long earliest(List<Window> windows, long from, long to) {
        long[] times = new long[1 + windows.stream().mapToInt(v -> v.weights().blocks.length).sum()];
        int n = 0;
        times[n++] = from;
        for (Window v : windows) {
            for (long y : v.weights().blocks) {
                long t = (y + v.k()) * v.p();
                if (t > from && t <= to) {
                    times[n++] = t;
                }
            }
        }
        times = Arrays.copyOf(times, n);
        Arrays.sort(times);
        for (long t : times) {
            if (windows.stream().allMatch(v -> v.fitsAt(t))) {
                return t;
            }
        }
        return -1;
    }
}
