package io.github.throttle;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Throttling for code that is not annotated. Inject it ({@code @Inject Throttler throttler}).
 *
 * <p>Buckets and identities are those annotated methods use: a bucket is a {@link Throttle#name()} (or
 * {@code Class#method}); an identity is {@code user:<name>}, {@code ip:<address>}, {@code key:<value>},
 * {@code all:*} or {@code <resolver class>:<value>} — any other string is an identity of its own.
 */
public interface Throttler {

    /** Charges {@code weight} to {@code identity} in {@code bucket} if every rate allows it. */
    Decision acquire(String bucket, String identity, long weight, Rate... rates);

    /** As {@link #acquire}, without blocking the calling thread. */
    CompletionStage<Decision> acquireAsync(String bucket, String identity, long weight, Rate... rates);

    /** Reports usage without recording anything (a call of weight 0). */
    Decision count(String bucket, String identity, Rate... rates);

    /** Forgets everything counted for {@code identity} in {@code bucket}, in every window. */
    void reset(String bucket, String identity);

    /**
     * At most {@code limit} weight per {@code window}, counted in sub-buckets of {@code precision}.
     */
    record Rate(long limit, Duration window, Duration precision) {

        /** A fixed window. */
        public static Rate of(long limit, Duration window) {
            return new Rate(limit, window, window);
        }

        /** A sliding window counted in sub-buckets of {@code precision}. */
        public static Rate sliding(long limit, Duration window, Duration precision) {
            return new Rate(limit, window, precision);
        }
    }
}
