package io.github.throttle.memory;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Taken;

/** The seats of an in-flight limit as one call sees them: the rules of the script's Seats. */
final class SeatPart extends Part {

    /** Null while the identity holds none of these seats. */
    private Seats seats;
    /** The lease the call took (0 for a weight of 0, which takes none). */
    private long lease;

    /** What {@code seats} hold at {@code now}, without changing them. */
    static SeatPart look(Seats seats, long now) {
        SeatPart s = new SeatPart();
        s.seats = seats;
        s.at = now;
        s.used = seats == null ? 0 : seats.used(now);
        s.peak = s.used;
        return s;
    }

    /** Takes a seat: a lease of the limit's duration, when the weight is above 0. */
    @Override
    long record(IdentityCounts identity, Limit l, long weight, long now, long leaseId) {
        if (weight == 0) {
            return 0;
        }
        seats = identity.seatsOrAdd(l);
        lease = seats.take(now, l.durationMillis(), weight, leaseId);
        used = seats.used(now);
        started = true;
        return l.durationMillis();
    }

    /**
     * When denied by these seats: until enough leases end for the call to fit (a whole lease if they never free
     * enough); otherwise until the soonest lease held ends (0 when none is).
     */
    @Override
    void figures(long[] figures, int p, Limit l, long weight, boolean allowed, boolean recorded, long now) {
        long need = used + weight - l.limit();
        if (!allowed && need > 0) {
            long end = seats == null ? Long.MAX_VALUE : seats.endFreeing(need, at);
            figures[p * 3 + 1] = end == Long.MAX_VALUE ? l.durationMillis() : end - at;
            figures[p * 3 + 2] = 1;
        } else if (used > 0) {
            figures[p * 3 + 1] = seats.soonestEnd(at) - at;
        }
    }

    @Override
    Taken taken() {
        return new Taken.Lease(lease);
    }

    /** Ends a call's seat: its lease, if it is still held; the seats go when none is left. */
    static void release(IdentityCounts identity, Limit l, Taken.Lease lease) {
        Seats seats = identity.seats(l);
        if (seats != null && seats.release(lease.id())) {
            identity.dropSeats(l);
        }
    }
}
