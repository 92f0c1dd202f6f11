package io.github.throttle.memory;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Taken;

/**
 * What one pair of a call (a key and a limit) sees of its counter while the call is decided, then leaves: one
 * kind per counter, a {@link WindowPart rate window} or {@link SeatPart seats}. A pair that shares its count with
 * an earlier one of the same call is that same part.
 */
abstract sealed class Part permits WindowPart, SeatPart {

    /** The time the figures are relative to. */
    long at;
    /** Weight counted now (after the call is recorded: including it). */
    long used;
    /** Weight in the fullest window holding the call (seats: {@link #used}). */
    long peak;
    /** Whether recording the call started weight where there was none: the identity's expiry then moves. */
    boolean started;

    /**
     * Records the call's weight in the counter (taken from {@code identity}) and returns how long, from now, it
     * keeps weight: what the identity's expiry must reach.
     */
    abstract long record(IdentityCounts identity, Limit l, long weight, long now, long leaseId);

    /**
     * Writes the pair's wait and violation into {@code figures} (its remaining is written before), the call being
     * {@code allowed} or not and, if allowed, recorded or only reported.
     */
    abstract void figures(long[] figures, int p, Limit l, long weight, boolean allowed, boolean recorded, long now);

    /** What an allowed recorded call took here: the sub-bucket it was counted or reserved in, or its lease. */
    abstract Taken taken();
}
