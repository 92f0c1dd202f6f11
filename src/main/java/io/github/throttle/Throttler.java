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

    /**
     * Charges {@code weight} to {@code identity} in {@code bucket} if every rate allows it: the call is allowed
     * when, for every rate, the weight already counted in its window plus {@code weight} does not exceed its
     * limit. A denied call records nothing. Blocks until the decision is made.
     *
     * @param bucket   the bucket name, as in {@link Throttle#name()}
     * @param identity who is charged, e.g. {@code user:alice}; not empty
     * @param weight   the cost of this call; between 1 and the least limit
     * @param rates    the limits to check together, atomically; at least one
     * @return the decision, with one quota per rate in the order given (none when unmetered)
     * @throws IllegalArgumentException when no rate is given, the identity is empty, a rate is invalid, two
     *                                  rates have the same window and precision, or the weight is not between 1
     *                                  and every rate's limit
     */
    default Decision acquire(String bucket, String identity, long weight, Rate... rates) {
        return acquire(bucket, identity, weight, Duration.ZERO, rates);
    }

    /**
     * As {@link #acquire(String, String, long, Rate...)}, and a call that does not fit now may wait for its turn:
     * if every rate allows it within {@code maxWait}, the store reserves it at the earliest such time (counting
     * earlier reservations, on every instance) and this method returns then, allowed, with
     * {@link Decision#waitedMillis()} telling how long it waited; otherwise it is denied at once. Waiting callers
     * proceed in reservation order, and no window ever admits more than its limit. The calling thread waits.
     *
     * @param bucket   the bucket name, as in {@link Throttle#name()}
     * @param identity who is charged, e.g. {@code user:alice}; not empty
     * @param weight   the cost of this call; between 1 and the least limit
     * @param maxWait  the longest the call may wait; zero never waits
     * @param rates    the limits to check together, atomically; at least one, none in flight when it may wait
     * @return the decision, with one quota per rate in the order given (none when unmetered)
     * @throws IllegalArgumentException as {@link #acquire(String, String, long, Rate...)}; or when {@code maxWait} is
     *                                  negative, or above zero with an in-flight rate
     */
    Decision acquire(String bucket, String identity, long weight, Duration maxWait, Rate... rates);

    /**
     * As {@link #acquire}, without blocking the calling thread.
     *
     * @param bucket   the bucket name, as in {@link Throttle#name()}
     * @param identity who is charged, e.g. {@code user:alice}; not empty
     * @param weight   the cost of this call; between 1 and the least limit
     * @param rates    the limits to check together, atomically; at least one
     * @return a stage completed with the decision
     * @throws IllegalArgumentException when no rate is given, the identity is empty, a rate is invalid, two
     *                                  rates have the same window and precision, or the weight is not between 1
     *                                  and every rate's limit
     */
    default CompletionStage<Decision> acquireAsync(String bucket, String identity, long weight, Rate... rates) {
        return acquireAsync(bucket, identity, weight, Duration.ZERO, rates);
    }

    /**
     * As {@link #acquire(String, String, long, Duration, Rate...)}, without holding a thread: the stage completes
     * when the call may proceed.
     *
     * @param bucket   the bucket name, as in {@link Throttle#name()}
     * @param identity who is charged, e.g. {@code user:alice}; not empty
     * @param weight   the cost of this call; between 1 and the least limit
     * @param maxWait  the longest the call may wait; zero never waits
     * @param rates    the limits to check together, atomically; at least one, none in flight when it may wait
     * @return a stage completed with the decision, once the call may proceed
     * @throws IllegalArgumentException as {@link #acquire(String, String, long, Duration, Rate...)}
     */
    CompletionStage<Decision> acquireAsync(String bucket, String identity, long weight, Duration maxWait, Rate... rates);

    /**
     * Reports usage without recording anything (a call of weight 0).
     *
     * @param bucket   the bucket name, as in {@link Throttle#name()}
     * @param identity the identity to report on, e.g. {@code user:alice}; not empty
     * @param rates    the limits to report on; at least one
     * @return the current figures, with one quota per rate in the order given (none when unmetered)
     * @throws IllegalArgumentException when no rate is given, the identity is empty, a rate is invalid, or two
     *                                  rates have the same window and precision
     */
    Decision count(String bucket, String identity, Rate... rates);

    /**
     * Gives back the weight an {@link #acquire} recorded, for code that learns the outcome of a call later
     * (count only failures: give back on success). The weight returns to the sub-buckets it was recorded in,
     * as far as they are still in their windows; usage never goes below 0. Only the first give-back of a
     * decision does anything; a denied or unmetered decision has nothing to give back. Blocks until the store
     * answers; a store that cannot be asked leaves the weight counted.
     *
     * @param decision the decision of an allowed {@link #acquire} or {@link #acquireAsync}
     */
    void giveBack(Decision decision);

    /**
     * Ends a call that holds seats ({@link Rate#inFlight}): releases them, so that another call may take them;
     * the weight it counted in other rates stays counted. Call it when the work the seats guard is done, whatever
     * its outcome, typically in a {@code finally}. Only the first release of a decision does anything; a seat
     * never released is freed by the store when its lease ends. Blocks until the store answers; a store that
     * cannot be asked leaves the seats to their lease. Same as {@link Decision#release()}, waited for.
     *
     * @param decision the decision of an allowed {@link #acquire} or {@link #acquireAsync}
     */
    void release(Decision decision);

    /**
     * Forgets everything counted for {@code identity} in {@code bucket}, in every window. Blocks until the
     * store answers.
     *
     * @param bucket   the bucket name
     * @param identity the identity whose counts are dropped
     */
    void reset(String bucket, String identity);

    /**
     * At most {@code limit} weight per {@code window}, counted in sub-buckets of {@code precision}; or, when
     * {@code inFlight}, at most {@code limit} weight held at once by calls in progress, {@code window} being the
     * lease (see {@link #inFlight(long, Duration)}).
     *
     * @param limit     weight allowed per window (in flight: at once, at most 10,000); at least 1
     * @param window    window length (in flight: the lease); at least one millisecond
     * @param precision sub-bucket length, between one millisecond and the window; {@code null} or equal to
     *                  the window means a fixed window (in flight: {@code null} or the window)
     * @param inFlight  whether the rate counts calls in progress rather than calls made
     */
    record Rate(long limit, Duration window, Duration precision, boolean inFlight) {

        /**
         * A rate of calls made: at most {@code limit} weight per {@code window}, counted in sub-buckets of
         * {@code precision}.
         *
         * @param limit     weight allowed per window; at least 1
         * @param window    window length; at least one millisecond
         * @param precision sub-bucket length, between one millisecond and the window; {@code null} or equal to
         *                  the window means a fixed window
         */
        public Rate(long limit, Duration window, Duration precision) {
            this(limit, window, precision, false);
        }

        /**
         * Calls in progress: at most {@code limit} weight held at once. An allowed {@link Throttler#acquire} holds
         * its weight (a seat) until {@link Throttler#release} (or {@link Decision#release()}); a seat still held
         * {@code lease} after it was taken is freed by the store, so choose the lease longer than the slowest call.
         * Counted apart from rates of calls made, even of the same window.
         *
         * @param limit weight held at once; between 1 and 10,000
         * @param lease how long a seat is held at most; at least one millisecond
         * @return the rate
         */
        public static Rate inFlight(long limit, Duration lease) {
            return new Rate(limit, lease, lease, true);
        }

        /**
         * A fixed window: the whole window is one sub-bucket.
         *
         * @param limit  weight allowed per window
         * @param window window length
         * @return the rate
         */
        public static Rate of(long limit, Duration window) {
            return new Rate(limit, window, window);
        }

        /**
         * A sliding window counted in sub-buckets of {@code precision}.
         *
         * @param limit     weight allowed per window
         * @param window    window length
         * @param precision sub-bucket length; smaller is smoother and costs more memory
         * @return the rate
         */
        public static Rate sliding(long limit, Duration window, Duration precision) {
            return new Rate(limit, window, precision);
        }
    }
}
