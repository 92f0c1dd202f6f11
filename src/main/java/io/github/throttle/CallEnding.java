package io.github.throttle;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How an allowed call ends: what it recorded comes back, at most once each — the weight it counted in rate
 * limits ({@link #giveBack()}) and the seats it holds in in-flight limits ({@link #release()}). Held by whoever
 * runs the call: {@link Decision#ending()} hands it over; the adapters end annotated calls themselves.
 */
public final class CallEnding {

    /** The ending of a call that recorded nothing to take back: denied, unmetered, or not returnable. */
    public static final CallEnding NONE = new CallEnding(null);

    private static final int WEIGHT = 1;
    private static final int SEATS = 2;

    /** Takes back part of what a call recorded; null when there is nothing to take back. */
    private final Parts parts;
    /** What was taken back already: {@link #WEIGHT} and {@link #SEATS}, each at most once. */
    private final AtomicInteger returned = new AtomicInteger();

    private CallEnding(Parts parts) {
        this.parts = parts;
    }

    /**
     * How a store takes back what an allowed call recorded: the weight it counted in the windows of rate limits,
     * the seats it holds in in-flight limits, or both.
     */
    @FunctionalInterface
    public interface Parts {
        /**
         * Takes back part of what the call recorded; asked at most once for each part.
         *
         * @param weight whether to give back the weight counted in rate limits
         * @param seats  whether to release the seats held in in-flight limits
         * @return a stage completed when the store has taken it back (or could not)
         */
        CompletionStage<Void> giveBack(boolean weight, boolean seats);
    }

    /**
     * The ending of a call whose store takes back what it recorded with {@code parts}; for stores and limiters,
     * which know what the call recorded.
     *
     * @param parts asked at most once for the weight and at most once for the seats
     * @return the ending
     */
    public static CallEnding of(Parts parts) {
        return new CallEnding(Objects.requireNonNull(parts, "parts"));
    }

    /**
     * Gives the weight this call recorded in rate limits back to the sub-buckets it was recorded in, as far as
     * they are still in their windows; usage never goes below 0 and other identities' weight is never touched.
     * Seats are not released here: {@link #release()} does that. Only the first call does anything.
     *
     * @return a stage completed when the store has taken the weight back (or could not: it then stays counted)
     */
    public CompletionStage<Void> giveBack() {
        return returning(WEIGHT);
    }

    /**
     * Releases the seats this call holds in in-flight limits ({@link Throttle#inFlight()}), so that another call
     * may take them; the weight it counted in rate limits stays counted. Call it once the work the seat guards is
     * done, whatever its outcome. Only the first call does anything; a seat never released is freed by the store
     * when its lease (the limit's duration) ends.
     *
     * @return a stage completed when the store has released the seats (or could not: they are then freed when
     *         their lease ends)
     */
    public CompletionStage<Void> release() {
        return returning(SEATS);
    }

    /** Takes back the parts asked for that were not taken back before. */
    private CompletionStage<Void> returning(int part) {
        if (parts == null) {
            return CompletableFuture.completedFuture(null);
        }
        int before = returned.getAndUpdate(r -> r | part);
        if ((before & part) != 0) {
            return CompletableFuture.completedFuture(null);
        }
        return parts.giveBack(part == WEIGHT, part == SEATS);
    }
}
