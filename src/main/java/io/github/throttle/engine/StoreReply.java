package io.github.throttle.engine;

/**
 * A store's answer to a {@link StoreCall}: whether the call was allowed, and three figures per pair (in the
 * call's pair order): remaining weight, a wait in milliseconds, and 1 if that pair denied the call.
 * The wait is the time until the call would fit for a violated pair, else the time until the oldest counted
 * weight leaves the window (0 when nothing is counted); for a pair of an in-flight limit, the time until enough
 * leases end, else until the soonest lease held ends. For a {@linkplain StoreCall#returnable() returnable}
 * call that was allowed, {@code subBuckets} holds the sub-bucket each pair recorded in, or for an in-flight
 * pair the id of the lease its seat holds (else null): what a give-back or a release needs; weight reserved
 * ahead of now is told as {@code -1 - b} for sub-bucket {@code b}. A call that waits is allowed with a
 * {@code delayMillis} above 0: it was reserved, and proceeds that long after the store's now.
 */
public record StoreReply(boolean allowed, long[] figures, long[] subBuckets, long delayMillis) {

    public StoreReply(boolean allowed, long[] figures) {
        this(allowed, figures, null, 0);
    }

    public StoreReply(boolean allowed, long[] figures, long[] subBuckets) {
        this(allowed, figures, subBuckets, 0);
    }

    /** The sub-bucket pair {@code pair} recorded in; for an in-flight pair, its lease id. */
    public long subBucket(int pair) {
        return subBuckets[pair];
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
                && java.util.Arrays.equals(figures, r.figures) && java.util.Arrays.equals(subBuckets, r.subBuckets);
    }

    @Override
    public int hashCode() {
        return 31 * Boolean.hashCode(allowed) + java.util.Arrays.hashCode(figures);
    }

    @Override
    public String toString() {
        return (allowed ? delayMillis > 0 ? "reserved in " + delayMillis + " ms" : "allowed" : "denied")
                + java.util.Arrays.toString(figures) + (subBuckets == null ? "" : " in " + java.util.Arrays.toString(subBuckets));
    }
}
