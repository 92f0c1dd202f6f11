package io.github.throttle.engine;

import java.util.Objects;

/**
 * One window: at most {@code limit} weight per {@code durationMillis}, counted in sub-buckets of
 * {@code precisionMillis}. Immutable; built once per method and reused for every call.
 */
public final class Limit {

    /** Upper bound of {@link #limit()}: the script keeps counts in 32-bit fields. */
    public static final long MAX_LIMIT = Integer.MAX_VALUE;
    /** Upper bound of sub-buckets per window: bounds memory (and fits the script's 3-byte sub-bucket names). */
    public static final long MAX_BLOCKS = 1_000_000;
    /** Windows of at most this many sub-buckets keep them in a ring (see {@code sliding-window.lua}); longer ones in a chain. */
    static final long RING_BLOCKS = 64;

    private final long limit;
    private final long durationMillis;
    private final long precisionMillis;
    private final long blocks;
    private final String tag;
    private final String policy;
    private final String[] scriptArgs;

    /**
     * @param policy name shown to clients for this limit; {@code null} derives one from the window
     *               (e.g. {@code 1h}, {@code 250ms})
     */
    public Limit(long limit, long durationMillis, long precisionMillis, String policy) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
        }
        if (durationMillis < 1) {
            throw new IllegalArgumentException("duration must be at least 1 ms, was " + durationMillis + " ms");
        }
        if (precisionMillis < 1 || precisionMillis > durationMillis) {
            throw new IllegalArgumentException("precision must be between 1 ms and the duration (" + durationMillis
                    + " ms), was " + precisionMillis + " ms");
        }
        long k = (durationMillis + precisionMillis - 1) / precisionMillis;
        if (k > MAX_BLOCKS) {
            throw new IllegalArgumentException("duration / precision must not exceed " + MAX_BLOCKS
                    + " sub-buckets, was " + k);
        }
        this.limit = limit;
        this.durationMillis = durationMillis;
        this.precisionMillis = precisionMillis;
        this.blocks = k;
        // field prefix inside the identity's hash: names the window, so limits of one bucket never collide;
        // windows the script keeps as a chain of packed fields end in ';' (their fields once held decimal
        // numbers: a key written that way is never read as packed)
        this.tag = Long.toString(durationMillis, 36)
                + (precisionMillis == durationMillis ? "" : "/" + Long.toString(precisionMillis, 36))
                + (k > RING_BLOCKS ? ";" : ":");
        this.policy = policy != null ? policy : windowName(durationMillis);
        // base 36, as the script reads numbers (tonumber(s, 36) costs Redis half of a decimal tonumber)
        this.scriptArgs = new String[] {tag, Long.toString(limit, 36), Long.toString(precisionMillis, 36), Long.toString(k, 36)};
    }

    public static Limit of(long limit, long durationMillis, long precisionMillis) {
        return new Limit(limit, durationMillis, precisionMillis, null);
    }

    /** A fixed window (precision = duration). */
    public static Limit fixed(long limit, long durationMillis) {
        return new Limit(limit, durationMillis, durationMillis, null);
    }

    /** The shortest readable name of a window length: {@code 250ms}, {@code 1s}, {@code 90s}, {@code 1h}. */
    public static String windowName(long millis) {
        if (millis % 86_400_000L == 0) {
            return millis / 86_400_000L + "d";
        }
        if (millis % 3_600_000L == 0) {
            return millis / 3_600_000L + "h";
        }
        if (millis % 60_000L == 0) {
            return millis / 60_000L + "m";
        }
        if (millis % 1000L == 0) {
            return millis / 1000L + "s";
        }
        return millis + "ms";
    }

    public long limit() {
        return limit;
    }

    public long durationMillis() {
        return durationMillis;
    }

    public long precisionMillis() {
        return precisionMillis;
    }

    /** The sub-bucket holding {@code nowMillis}: {@code floor(now / precision)}, without a division while it lasts. */
    public long block(long nowMillis) {
        Span s = span;
        long into = nowMillis - s.start;
        if (into >= 0 && into < precisionMillis) {
            return s.block;
        }
        long b = Math.floorDiv(nowMillis, precisionMillis);
        span = new Span(b * precisionMillis, b);
        return b;
    }

    /** The last sub-bucket asked for, shared by the callers of this limit (immutable: read whole or not). */
    private record Span(long start, long block) {
    }

    /** Not volatile: a caller that sees an older span only computes its block again (final fields publish it whole). */
    private Span span = new Span(Long.MIN_VALUE, 0);

    /** Sub-buckets per window: {@code ceil(duration / precision)}. */
    public long blocks() {
        return blocks;
    }

    /** Identifies the window among the limits stored for one identity. */
    public String tag() {
        return tag;
    }

    public String policy() {
        return policy;
    }

    /** The script arguments of this limit, without the weight: tag, limit, precision, blocks. */
    public String[] scriptArgs() {
        return scriptArgs;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Limit l && limit == l.limit && durationMillis == l.durationMillis
                && precisionMillis == l.precisionMillis && policy.equals(l.policy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(limit, durationMillis, precisionMillis, policy);
    }

    @Override
    public String toString() {
        return limit + "/" + windowName(durationMillis)
                + (precisionMillis == durationMillis ? "" : " by " + windowName(precisionMillis));
    }
}
