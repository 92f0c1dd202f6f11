package io.github.throttle.engine;

/**
 * A store's answer to a {@link StoreCall}: whether the call was allowed, and three figures per pair (in the
 * call's pair order): remaining weight, a wait in milliseconds, and 1 if that pair denied the call.
 * The wait is the time until the call would fit for a violated pair, else the time until the oldest counted
 * weight leaves the window (0 when nothing is counted); for a pair of an in-flight limit, the time until enough
 * leases end, else until the soonest lease held ends. For a {@linkplain StoreCall#returnable() returnable}
 * call that was allowed, {@code taken} holds what each pair took ({@link Taken}: the sub-bucket it was counted
 * or reserved in, or the lease its seat holds; else null): what a give-back or a release needs. A call that waits is allowed with a
 * {@code delayMillis} above 0: it was reserved, and proceeds that long after the store's now.
 */
public record StoreReply(boolean allowed, long[] figures, Taken[] taken, long delayMillis) {

    public StoreReply(boolean allowed, long[] figures) {
        this(allowed, figures, null, 0);
    }

    public StoreReply(boolean allowed, long[] figures, Taken[] taken) {
        this(allowed, figures, taken, 0);
    }

    /** What pair {@code pair} took: the sub-bucket it was counted or reserved in, or its lease. */
    public Taken taken(int pair) {
        return taken[pair];
    }

    public long remaining(int pair) {
        return figures[pair * 3];
    }

    public long waitMillis(int pair) {
        return figures[pair * 3 + 1];
    }

    public boolean violated(int pair) {
        return figures[pair * 3 + 2] != 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoreReply r && allowed == r.allowed && delayMillis == r.delayMillis
                && java.util.Arrays.equals(figures, r.figures) && java.util.Arrays.equals(taken, r.taken);
    }

    @Override
    public int hashCode() {
        return 31 * Boolean.hashCode(allowed) + java.util.Arrays.hashCode(figures);
    }

    @Override
    public String toString() {
        return (allowed ? delayMillis > 0 ? "reserved in " + delayMillis + " ms" : "allowed" : "denied")
                + java.util.Arrays.toString(figures) + (taken == null ? "" : " took " + java.util.Arrays.toString(taken));
    }
}
