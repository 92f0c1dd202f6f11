package io.github.throttle.memory;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Taken;

import java.util.List;

/**
 * A rate window as one call sees it: what it counts at the call's sub-bucket, reservations included, and where the
 * call is recorded or reserved — the rules of the script's rate windows and Reservations.
 */
final class WindowPart extends Part {

    /** The call's sub-bucket (the newest one if the clock went back). */
    private long subBucket;
    /** Null while nothing of this window is counted. */
    private WindowCounts counts;
    /** The window's counts, whatever they hold; null when it has none. */
    private WindowCounts window;
    /** Older sub-buckets that have left the window. */
    private int leaving;
    /** Oldest sub-bucket still in the window. */
    private long oldest;
    /** With reservations: every sub-bucket's weight, reserved included; else null. */
    private Reservations all;
    /** With reservations: the reserved sub-buckets still in a window. */
    private Reservations reserved;
    /** Of a call that may wait and was denied now: every sub-bucket's weight. */
    private Reservations waited;
    /** The sub-bucket the call was reserved in, or -1. */
    private long reservedIn = -1;

    /** What a window holds at {@code now}, without changing it. */
    static WindowPart look(WindowCounts counts, Limit l, long now) {
        WindowPart s = new WindowPart();
        s.subBucket = l.subBucket(now);
        s.at = now;
        if (counts != null && counts.counted() > 0) {
            if (s.subBucket < counts.newest()) {
                // the clock went back: keep counting in the newest sub-bucket
                s.subBucket = counts.newest();
                s.at = counts.newest() * l.precisionMillis();
            }
            long trim = s.subBucket - l.subBuckets() + 1;
            if (counts.newest() >= trim) {
                s.counts = counts;
                s.leaving = counts.leaving(trim);
                s.used = counts.counted() - counts.weightOfOldest(s.leaving);
                s.oldest = counts.subBucket(s.leaving);
            }
        }
        s.peak = s.used;
        s.window = counts;
        if (counts != null && counts.marked()) {
            Reservations r = counts.reservedFrom(s.subBucket - l.subBuckets() + 1);
            if (!r.isEmpty()) {
                s.reserved = r;
                s.all = (s.counts != null && s.used > 0 ? counts.blocksFrom(s.leaving) : Reservations.NONE).merge(r);
                s.peak = s.all.peak(l.subBuckets(), s.subBucket);
            }
        }
        return s;
    }

    /** The latest reservation of the window, which no new one precedes; {@code Long.MIN_VALUE} when it holds none. */
    long lastReserved() {
        return window != null && window.marked() ? window.lastReserved() : Long.MIN_VALUE;
    }

    /** What a reservation of weight {@code w} needs of this window, if the call may wait. */
    Reservations.Window waiting(Limit l, long w) {
        if (all != null) {
            waited = all;
        } else {
            waited = counts != null && used > 0 ? counts.blocksFrom(leaving) : Reservations.NONE;
        }
        return new Reservations.Window(waited, l.precisionMillis(), l.subBuckets(), l.limit(), w, subBucket);
    }

    /**
     * Reserves weight {@code w} in sub-bucket {@code rec}, the latest reservation becoming at least {@code t0};
     * returns when that weight leaves the window.
     */
    long reserve(IdentityCounts identity, Limit l, long w, long t0, long rec) {
        WindowCounts c = window != null ? window : identity.findOrAdd(l);
        long last = c.marked() ? Math.max(c.lastReserved(), t0) : t0;
        Reservations kept = reserved != null ? reserved : Reservations.NONE;
        c.reserve(kept.merge(new Reservations(new long[] {rec}, new long[] {w})), last);
        reservedIn = rec;
        return l.leavesAt(rec);
    }

    @Override
    long record(IdentityCounts identity, Limit l, long weight, long now, long leaseId) {
        if (reservedIn >= 0) {
            return 0;
        }
        if (counts == null) {
            counts = identity.findOrAdd(l);
            counts.clear();
        } else {
            counts.drop(leaving);
        }
        counts.mark(all != null);
        started = counts.record(subBucket, weight);
        used = counts.counted();
        leaving = 0;
        oldest = counts.subBucket(0);
        return l.leavesAt(subBucket) - now;
    }

    @Override
    void figures(long[] figures, int p, Limit l, long w, boolean allowed, boolean recorded, long now) {
        long need = used + w - l.limit();
        if (all != null || reservedIn >= 0) {
            reservedFigures(figures, p, l, w, allowed, recorded, now);
        } else if (!allowed && need > used) {
            // heavier than the limit itself (only under scaled local limits: callers refuse such calls before):
            // it never fits; the wait is a whole window
            figures[p * 3 + 1] = l.leavesAt(subBucket) - at;
            figures[p * 3 + 2] = 1;
        } else if (!allowed && need > 0) {
            figures[p * 3 + 1] = l.leavesAt(counts.subBucketFreeing(leaving, need)) - at;
            figures[p * 3 + 2] = 1;
        } else if (used > 0) {
            figures[p * 3 + 1] = l.leavesAt(oldest) - at;
        }
    }

    /** The figures of a window holding reservations, or of a call reserved, as the script's rules give them. */
    private void reservedFigures(long[] figures, int p, Limit l, long w, boolean allowed, boolean recorded, long now) {
        long k = l.subBuckets();
        if (reservedIn >= 0) {
            long first = waited.isEmpty() ? reservedIn : Math.min(waited.oldest(), reservedIn);
            figures[p * 3] = Math.max(0, l.limit() - waited.peak(k, reservedIn) - w);
            figures[p * 3 + 1] = l.leavesAt(first) - now;
        } else if (allowed && recorded) {
            long first = w > 0 ? Math.min(all.oldest(), subBucket) : all.oldest();
            figures[p * 3] = Math.max(0, l.limit() - peak - w);
            figures[p * 3 + 1] = l.leavesAt(first) - at;
        } else if (allowed || peak + w <= l.limit()) {
            figures[p * 3] = Math.max(0, l.limit() - peak);
            figures[p * 3 + 1] = l.leavesAt(all.oldest()) - at;
        } else {
            figures[p * 3] = Math.max(0, l.limit() - peak);
            long fits = Reservations.earliest(List.of(new Reservations.Window(all, l.precisionMillis(), k, l.limit(), w, subBucket)),
                    at, Long.MAX_VALUE);
            if (fits < 0) {
                // heavier than the limit: a whole window after the newest weight
                fits = l.leavesAt(Math.max(all.newest(), subBucket));
            }
            figures[p * 3 + 1] = fits - at;
            figures[p * 3 + 2] = 1;
        }
    }

    @Override
    Taken taken() {
        return reservedIn >= 0 ? new Taken.Reserved(reservedIn) : new Taken.Counted(subBucket);
    }

    /** Gives back weight {@code w} counted or reserved where {@code taken} says. */
    static void giveBack(IdentityCounts identity, Limit l, Taken taken, long w) {
        WindowCounts counts = identity.find(l);
        if (counts != null && taken instanceof Taken.Reserved r) {
            counts.giveBackReserved(r.subBucket(), w);
        } else if (counts != null && taken instanceof Taken.Counted c) {
            counts.giveBack(c.subBucket(), w);
        }
    }
}
