package io.github.throttle;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How an allowed call ends: what it recorded comes back, at most once each — the weight it counted in rate
 * limits that give it back ({@link #giveBack()}), the seats it holds in in-flight limits ({@link #release()}), or
 * everything, for a call that never ran ({@link #undo()}). Held by whoever runs the call: {@link Decision#ending()}
 * hands it over; the adapters end annotated calls themselves.
 */
public final class CallEnding {

    /** The ending of a call that recorded nothing to take back: denied, unmetered, or only reported. */
    public static final CallEnding NONE = new CallEnding(null);

    /** The parts of what a call recorded that come back separately. */
    public enum Part {
        /** The weight counted in rate limits that give it back ({@code skipSuccessful}, programmatic calls). */
        WEIGHT,
        /** The seats held in in-flight limits. */
        SEATS,
        /** The weight counted (or reserved) in every other rate limit: it comes back only when the call is undone. */
        REST
    }

    /** Takes back parts of what a call recorded; null when there is nothing to take back. */
    private final Parts parts;
    /** The parts taken back already, as a bit per {@link Part}: each at most once. */
    private final AtomicInteger returned = new AtomicInteger();

    private CallEnding(Parts parts) {
        this.parts = parts;
    }

    /** How a store takes back parts of what an allowed call recorded. */
    @FunctionalInterface
    public interface Parts {
        /**
         * Takes back these parts of what the call recorded; asked at most once for each part.
         *
         * @param parts not empty
         * @return a stage completed when the store has taken them back (or could not)
         */
        CompletionStage<Void> giveBack(Set<Part> parts);
    }

    /**
     * The ending of a call whose store takes back what it recorded with {@code parts}; for stores and limiters,
     * which know what the call recorded.
     *
     * @param parts asked at most once for each part
     * @return the ending
     */
    public static CallEnding of(Parts parts) {
        return new CallEnding(Objects.requireNonNull(parts, "parts"));
    }

    /**
     * Gives the weight this call recorded in rate limits that give it back to the sub-buckets it was recorded in, as
     * far as they are still in their windows; usage never goes below 0 and other identities' weight is never
     * touched. Seats are not released here: {@link #release()} does that. Only the first call does anything.
     *
     * @return a stage completed when the store has taken the weight back (or could not: it then stays counted)
     */
    public CompletionStage<Void> giveBack() {
        return returning(EnumSet.of(Part.WEIGHT));
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
        return returning(EnumSet.of(Part.SEATS));
    }

    /**
     * Undoes the call: everything it recorded and did not give back yet comes back — its weight in every rate
     * limit (or the weight it reserved ahead of now, for a call waiting its turn) and its seats — as if it had never
     * been allowed. For a call that never ran: cancelled before its decision was in, or while it waited its turn.
     *
     * @return a stage completed when the store has taken it back (or could not: it then stays counted, until it
     *         leaves its windows and its leases end)
     */
    public CompletionStage<Void> undo() {
        return returning(EnumSet.allOf(Part.class));
    }

    /** Takes back the parts asked for that were not taken back before. */
    private CompletionStage<Void> returning(Set<Part> asked) {
        if (parts == null) {
            return CompletableFuture.completedFuture(null);
        }
        int bits = 0;
        for (Part p : asked) {
            bits |= 1 << p.ordinal();
        }
        int want = bits;
        int before = returned.getAndUpdate(r -> r | want);
        Set<Part> now = EnumSet.noneOf(Part.class);
        for (Part p : asked) {
            if ((before & (1 << p.ordinal())) == 0) {
                now.add(p);
            }
        }
        return now.isEmpty() ? CompletableFuture.completedFuture(null) : parts.giveBack(now);
    }
}
