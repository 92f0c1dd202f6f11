package io.github.throttle.bench;

/**
 * The limits the benchmark decides against, described without the library's internal classes: the store
 * adapters ({@link Engine}) and {@link Bucket4j} turn them into their own.
 */
final class Windows {

    /** At most {@code limit} weight per {@code durationMillis}, counted in sub-buckets of {@code precisionMillis}. */
    record Window(long limit, long durationMillis, long precisionMillis) {

        static Window of(long limit, long durationMillis, long precisionMillis) {
            return new Window(limit, durationMillis, precisionMillis);
        }

        /** A fixed window (precision = duration). */
        static Window fixed(long limit, long durationMillis) {
            return new Window(limit, durationMillis, durationMillis);
        }
    }

    /** The README example's three limits (10/s + 120/min + 240/h at 1 min), raised so that every call is allowed. */
    static final Window[] HIGH = {
            Window.fixed(900_000_000, 1_000),
            Window.fixed(2_000_000_000, 60_000),
            Window.of(2_000_000_000, 3_600_000, 60_000)};
    /** The README example itself. */
    static final Window[] EXAMPLE = {
            Window.fixed(10, 1_000),
            Window.fixed(120, 60_000),
            Window.of(240, 3_600_000, 60_000)};
    /** One hour by one second (3,600 sub-buckets), and one fixed hour. */
    static final Window[] SLIDING_HOUR = {Window.of(1_000_000_000, 3_600_000, 1_000)};
    static final Window[] FIXED_HOUR = {Window.fixed(1_000_000_000, 3_600_000)};

    /** {@link #HIGH} and {@link #EXAMPLE} for the article's script: [duration s, limit, precision s]. */
    static final String SEED_HIGH = "[[1,900000000],[60,2000000000],[3600,2000000000,60]]";
    static final String SEED_EXAMPLE = "[[1,10],[60,120],[3600,240,60]]";

    private Windows() {
    }
}
