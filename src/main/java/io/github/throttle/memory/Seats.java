package io.github.throttle.memory;

import io.github.throttle.engine.Limit;

import java.util.Arrays;

/**
 * The seats one identity holds in one {@linkplain Limit#inFlight() in-flight} limit: one lease per allowed call
 * still in progress (its end, its id and its weight), in the order taken. The rules are those of the script
 * ({@code sliding-window.lua}): a lease whose end is past counts nothing; expired leases are dropped when a seat is
 * taken; a lease's id is the one its call chose at random ({@code StoreCall#leaseId}), so a release that comes late
 * (after its lease ran out, or after a reset) never frees another call's seat. Guarded by the lock of its
 * identity.
 */
final class Seats extends Counter {

    /** Leases, three longs each: end, id, weight; {@code size} of them. */
    private long[] leases = new long[6];
    private int size;

    Seats(Limit window) {
        super(window);
    }

    /** Weight held at {@code now}: that of the leases that end after it. */
    long used(long now) {
        long used = 0;
        for (int i = 0; i < size; i++) {
            if (leases[i * 3] > now) {
                used += leases[i * 3 + 2];
            }
        }
        return used;
    }

    /** The soonest end of a lease held at {@code now}; {@link Long#MAX_VALUE} when none is. */
    long soonestEnd(long now) {
        long soonest = Long.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            long end = leases[i * 3];
            if (end > now && end < soonest) {
                soonest = end;
            }
        }
        return soonest;
    }

    /**
     * The end of the lease, counting the leases held at {@code now} soonest end first, at which {@code need}
     * weight has been freed; {@link Long#MAX_VALUE} when the leases held never free that much.
     */
    long endFreeing(long need, long now) {
        long[] live = new long[size * 2];
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (leases[i * 3] > now) {
                live[n * 2] = leases[i * 3];
                live[n * 2 + 1] = leases[i * 3 + 2];
                n++;
            }
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        long[] l = live;
        Arrays.sort(order, (a, b) -> Long.compare(l[a * 2], l[b * 2]));
        long freed = 0;
        for (int i : order) {
            freed += l[i * 2 + 1];
            if (freed >= need) {
                return l[i * 2];
            }
        }
        return Long.MAX_VALUE;
    }

    /**
     * Takes a seat of {@code weight} at {@code now} for {@code leaseMillis}, dropping the leases that have ended;
     * returns its lease id. A weight of 0 holds no seat: nothing changes and the id is 0.
     */
    long take(long now, long leaseMillis, long weight, long leaseId) {
        if (weight == 0) {
            return 0;
        }
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (leases[i * 3] > now) {
                System.arraycopy(leases, i * 3, leases, kept * 3, 3);
                kept++;
            }
        }
        size = kept;
        if ((size + 1) * 3 > leases.length) {
            leases = Arrays.copyOf(leases, leases.length * 2);
        }
        leases[size * 3] = now + leaseMillis;
        leases[size * 3 + 1] = leaseId;
        leases[size * 3 + 2] = weight;
        size++;
        return leaseId;
    }

    /** Releases the lease {@code id}, if it is still held (ended or not); returns whether no lease is left. */
    boolean release(long id) {
        for (int i = 0; i < size; i++) {
            if (leases[i * 3 + 1] == id) {
                System.arraycopy(leases, (i + 1) * 3, leases, i * 3, (size - i - 1) * 3);
                size--;
                break;
            }
        }
        return size == 0;
    }
}
