package io.github.throttle.engine;

import java.util.Objects;
import java.util.Optional;

/**
 * One limit, as declared: a closed set of kinds, each owning its rules. A {@link Window} allows at most
 * {@link #limit()} weight per window of {@link #durationMillis()}, counted in sub-buckets of
 * {@link #precisionMillis()}; {@link Seats} allow at most {@link #limit()} weight held by calls in progress, each
 * holding its weight (its seat) until it ends or its lease of {@link #durationMillis()} runs out. Immutable; built
 * once per target and shared by its calls.
 *
 * <p>The rules a limit must satisfy live here, in {@link #check} and {@link #checkInFlight}: configuration
 * reports a broken rule with the method and member at fault, programmatic callers get an
 * {@link IllegalArgumentException}.
 */
public abstract sealed class Limit permits Limit.Window, Limit.Seats {

    /** Upper bound of {@link #limit()}: stores keep counts in 32 bits. */
    public static final long MAX_LIMIT = Integer.MAX_VALUE;
    /** Upper bound of sub-buckets per window: bounds the memory of one identity. */
    public static final long MAX_SUB_BUCKETS = 1_000_000;
    /**
     * Upper bound of an in-flight limit: a store keeps one entry per seat held, read and written whole on every
     * call, so the work of a call grows with the limit.
     */
    public static final long MAX_SEATS = 10_000;

    private final long limit;
    private final long durationMillis;
    private final String policy;

    private Limit(long limit, long durationMillis, String policy) {
        this.limit = limit;
        this.durationMillis = durationMillis;
        this.policy = policy;
    }

    /**
     * A rate window: at most {@code limit} weight per {@code durationMillis}, counted in sub-buckets of
     * {@code precisionMillis} (equal to the duration: a fixed window).
     *
     * @param policy name shown to clients; {@code null} derives one from the window (e.g. {@code 1h}, {@code 250ms})
     * @throws IllegalArgumentException when a rule of {@link #check} is broken
     */
    public static Limit window(long limit, long durationMillis, long precisionMillis, String policy) {
        return new Window(limit, durationMillis, precisionMillis, policy != null ? policy : windowName(durationMillis));
    }

    /**
     * An in-flight limit: at most {@code limit} weight held at once by calls in progress, each seat released when
     * its call ends or, at the latest, {@code leaseMillis} after it was taken.
     *
     * @param policy name shown to clients; {@code null} derives one from the lease (e.g. {@code in-flight-10m})
     * @throws IllegalArgumentException when a rule of {@link #checkInFlight} is broken
     */
    public static Limit inFlight(long limit, long leaseMillis, String policy) {
        return new Seats(limit, leaseMillis, policy != null ? policy : "in-flight-" + windowName(leaseMillis));
    }

    public static Limit of(long limit, long durationMillis, long precisionMillis) {
        return window(limit, durationMillis, precisionMillis, null);
    }

    /** A fixed window (precision = duration). */
    public static Limit fixed(long limit, long durationMillis) {
        return window(limit, durationMillis, durationMillis, null);
    }

    /** A rule that a limit's figures break: which member, its value, and why it is refused. */
    public record Broken(String member, long value, String why) {
    }

    /** The first rule the figures of a rate window break, if any. */
    public static Optional<Broken> check(long limit, long durationMillis, long precisionMillis) {
        if (limit < 1 || limit > MAX_LIMIT) {
            return Optional.of(new Broken("limit", limit, "must be between 1 and " + MAX_LIMIT));
        }
        if (durationMillis < 1) {
            return Optional.of(new Broken("duration", durationMillis, "must be at least 1 ms"));
        }
        if (precisionMillis < 1 || precisionMillis > durationMillis) {
            return Optional.of(new Broken("precision", precisionMillis,
                    "must be between 1 ms and the duration (" + durationMillis + " ms)"));
        }
        long k = (durationMillis + precisionMillis - 1) / precisionMillis;
        if (k > MAX_SUB_BUCKETS) {
            return Optional.of(new Broken("precision", precisionMillis, "makes " + k + " sub-buckets; at most "
                    + MAX_SUB_BUCKETS + " are allowed per window"));
        }
        return Optional.empty();
    }

    /** The first rule the figures of an in-flight limit break, if any: a limit of at most {@link #MAX_SEATS}, a lease of at least 1 ms. */
    public static Optional<Broken> checkInFlight(long limit, long leaseMillis) {
        if (limit < 1 || limit > MAX_SEATS) {
            return Optional.of(new Broken("limit", limit, "must be between 1 and " + MAX_SEATS + " on an in-flight limit"));
        }
        if (leaseMillis < 1) {
            return Optional.of(new Broken("duration", leaseMillis, "must be at least 1 ms"));
        }
        return Optional.empty();
    }

    private static void refuse(Optional<Broken> broken) {
        broken.ifPresent(b -> {
            throw new IllegalArgumentException(b.member() + " = " + b.value() + " " + b.why());
        });
    }

    /** This limit with another {@link #limit()}: the same kind, window (or lease) and policy name. */
    public abstract Limit withLimit(long newLimit);

    /** Why {@code weight} cannot be charged against this limit, if it cannot: it must be between 1 and the limit. */
    public Optional<Broken> checkWeight(long weight) {
        if (weight < 1) {
            return Optional.of(new Broken("weight", weight, "must be at least 1"));
        }
        if (weight > limit) {
            return Optional.of(new Broken("weight", weight, "must not exceed the limit (" + limit
                    + "): such a call could never pass"));
        }
        return Optional.empty();
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

    /** The window's length; for seats, their lease. */
    public long durationMillis() {
        return durationMillis;
    }

    /** The sub-bucket length; for seats, their lease (one sub-bucket). */
    public abstract long precisionMillis();

    /** Sub-buckets per window: {@code ceil(duration / precision)}; 1 for seats. */
    public abstract long subBuckets();

    /** The sub-bucket holding {@code nowMillis}: {@code floor(now / precision)}. */
    public long subBucket(long nowMillis) {
        return Math.floorDiv(nowMillis, precisionMillis());
    }

    /** When sub-bucket {@code b} leaves the window: {@code (b + k) * precision}. */
    public long leavesAt(long b) {
        return (b + subBuckets()) * precisionMillis();
    }

    /**
     * Whether both limits count the same window (same kind, duration and precision): such limits of one bucket and
     * identity share their counts. Seats are never counted in a rate window, whatever its length.
     */
    public boolean sameWindow(Limit other) {
        return getClass() == other.getClass() && durationMillis == other.durationMillis
                && precisionMillis() == other.precisionMillis();
    }

    /**
     * Whether this limit counts calls in progress ({@link Seats}) rather than calls made: its
     * {@link #durationMillis()} is the lease after which a seat still held is released by the store.
     */
    public final boolean inFlight() {
        return this instanceof Seats;
    }

    /** The name shown to clients ({@code RateLimit-Policy}). */
    public String policy() {
        return policy;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Limit l && getClass() == l.getClass() && limit == l.limit && durationMillis == l.durationMillis
                && precisionMillis() == l.precisionMillis() && policy.equals(l.policy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass(), limit, durationMillis, precisionMillis(), policy);
    }

    /** A rate window, fixed or sliding: weight counted per sub-bucket, leaving the window sub-bucket by sub-bucket. */
    public static final class Window extends Limit {

        private final long precisionMillis;
        private final long subBuckets;

        private Window(long limit, long durationMillis, long precisionMillis, String policy) {
            super(limit, durationMillis, policy);
            refuse(check(limit, durationMillis, precisionMillis));
            this.precisionMillis = precisionMillis;
            this.subBuckets = (durationMillis + precisionMillis - 1) / precisionMillis;
        }

        @Override
        public long precisionMillis() {
            return precisionMillis;
        }

        @Override
        public long subBuckets() {
            return subBuckets;
        }

        @Override
        public Limit withLimit(long newLimit) {
            return newLimit == limit() ? this : new Window(newLimit, durationMillis(), precisionMillis, policy());
        }

        @Override
        public String toString() {
            return limit() + "/" + windowName(durationMillis())
                    + (precisionMillis == durationMillis() ? "" : " by " + windowName(precisionMillis));
        }
    }

    /** Seats of an in-flight limit: weight held by calls in progress, each seat until its call ends or its lease runs out. */
    public static final class Seats extends Limit {

        private Seats(long limit, long leaseMillis, String policy) {
            super(limit, leaseMillis, policy);
            refuse(checkInFlight(limit, leaseMillis));
        }

        @Override
        public long precisionMillis() {
            return durationMillis();
        }

        @Override
        public long subBuckets() {
            return 1;
        }

        @Override
        public Limit withLimit(long newLimit) {
            return newLimit == limit() ? this : new Seats(newLimit, durationMillis(), policy());
        }

        @Override
        public String toString() {
            return limit() + " in flight, lease " + windowName(durationMillis());
        }
    }
}
