package io.github.throttle;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The answer to one call: allowed or not, and the figures a client needs to pace itself.
 *
 * <p>All times are relative to the moment the store decided, in milliseconds:
 * <ul>
 *   <li>{@link #retryAfterMillis()}: for a denied call, the least wait after which the same call would be
 *       allowed if nothing else were recorded meanwhile (the largest over the violated limits); 0 when
 *       allowed.</li>
 *   <li>{@link #resetMillis()}: the wait until the most constrained limit gets weight back (its oldest
 *       counted sub-bucket leaves the window); 0 when nothing is counted.</li>
 * </ul>
 * A decision taken while the store was unreachable and {@code throttle.on-store-failure=allow} is
 * {@linkplain #unmetered() unmetered}: allowed, with no figures; with {@code local} it is taken
 * {@linkplain #isLocal() locally}, with the figures of the scaled limits. A call on plan {@code unlimited} is unmetered too;
 * one on plan {@code blocked} is {@linkplain #isBlocked() blocked}: denied, with no figures.
 */
public final class Decision {

    private static final Decision UNMETERED = new Decision(true, Long.MAX_VALUE, 0, 0, List.of());
    private static final long UNAVAILABLE = -1;
    private static final String BLOCKED = "blocked";

    private final boolean allowed;
    private final long remaining;
    private final long retryAfterMillis;
    private final long resetMillis;
    private final List<Quota> quotas;
    /** The plan whose limits applied; null for the default limits. */
    private final String plan;
    /** Returns the weight this call recorded and releases its seats; null when there is nothing to give back. */
    private final GiveBack giveBack;
    /** What was returned already: {@link #WEIGHT} and {@link #SEATS}, each at most once. */
    private final AtomicInteger returned = new AtomicInteger();
    private static final int WEIGHT = 1;
    private static final int SEATS = 2;
    /** Taken by this instance alone while the store could not be asked ({@code throttle.on-store-failure=local}). */
    private final boolean local;
    /** How long an allowed call waits for its reservation before it proceeds ({@code maxWaitMillis}); else 0. */
    private final long waitMillis;

    private Decision(boolean allowed, long remaining, long retryAfterMillis, long resetMillis, List<Quota> quotas) {
        this(allowed, remaining, retryAfterMillis, resetMillis, quotas, null, null, false, 0);
    }

    private Decision(boolean allowed, long remaining, long retryAfterMillis, long resetMillis, List<Quota> quotas,
                     String plan, GiveBack giveBack, boolean local, long waitMillis) {
        this.allowed = allowed;
        this.remaining = remaining;
        this.retryAfterMillis = retryAfterMillis;
        this.resetMillis = resetMillis;
        this.quotas = quotas;
        this.plan = plan;
        this.giveBack = giveBack;
        this.local = local;
        this.waitMillis = waitMillis;
    }

    /**
     * Builds a decision from its per-limit figures: remaining is the least over the quotas, reset that of the
     * quota with the least remaining, retry-after the largest over the violated quotas.
     *
     * @param allowed whether the call is allowed
     * @param quotas  the figures of each limit, in declaration order; copied
     * @return the decision
     * @throws IllegalArgumentException when {@code allowed} is false and no violated quota has a wait above 0
     */
    public static Decision of(boolean allowed, List<Quota> quotas) {
        long remaining = Long.MAX_VALUE;
        long reset = 0;
        long retry = 0;
        for (Quota q : quotas) {
            if (q.remaining() < remaining || (q.remaining() == remaining && q.resetMillis() > reset)) {
                remaining = q.remaining();
                reset = q.resetMillis();
            }
            if (q.violated()) {
                retry = Math.max(retry, q.resetMillis());
            }
        }
        if (!allowed && retry <= 0) {
            throw new IllegalArgumentException("a denied decision needs a violated quota with a wait > 0");
        }
        return new Decision(allowed, remaining, allowed ? 0 : retry, reset, List.copyOf(quotas));
    }

    /**
     * The decision taken when the store could not be asked and failures are configured to allow: allowed,
     * uncounted, with no figures.
     *
     * @return the unmetered decision
     */
    public static Decision unmetered() {
        return UNMETERED;
    }

    /**
     * The decision taken when the store could not be asked and failures are configured to deny: denied,
     * with no figures; HTTP answers {@code 503 Service Unavailable}.
     *
     * @param retryAfterMillis the wait to suggest before retrying, in milliseconds (at least 1 is used)
     * @return the unavailable decision
     */
    public static Decision unavailable(long retryAfterMillis) {
        return new Decision(false, UNAVAILABLE, Math.max(1, retryAfterMillis), 0, List.of());
    }

    /**
     * The decision of a call on plan {@code blocked}: refused without being counted, with no figures; HTTP
     * answers {@code 403 Forbidden}.
     *
     * @return the blocked decision
     */
    public static Decision blocked() {
        return new Decision(false, 0, 0, 0, List.of(), BLOCKED, null, false, 0);
    }

    /**
     * This decision, as taken for a call on {@code plan}.
     *
     * @param plan the plan whose limits applied; {@code null} or empty for the default limits
     * @return a decision with the same figures and that plan
     */
    public Decision onPlan(String plan) {
        String p = plan == null || plan.isEmpty() ? null : plan;
        if (Objects.equals(p, this.plan)) {
            return this;
        }
        return new Decision(allowed, remaining, retryAfterMillis, resetMillis, quotas, p, giveBack, local, waitMillis);
    }

    /**
     * How a store takes back what an allowed call recorded: the weight it counted in the windows of rate
     * limits, the seats it holds in in-flight limits, or both.
     */
    @FunctionalInterface
    public interface GiveBack {
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
     * This decision, with the way to give back what the call recorded; for stores and limiters, which know what
     * the call recorded.
     *
     * @param giveBack takes back the weight and seats this call recorded; asked at most once for each
     * @return a decision with the same figures that {@link #giveBack()} and {@link #release()} can undo
     */
    public Decision givingBackWith(GiveBack giveBack) {
        return new Decision(allowed, remaining, retryAfterMillis, resetMillis, quotas, plan, Objects.requireNonNull(giveBack), local, waitMillis);
    }

    /**
     * Gives the weight this call recorded in rate limits back to the sub-buckets it was recorded in, as far as
     * they are still in their windows; usage never goes below 0 and other identities' weight is never touched.
     * Seats of in-flight limits are not released here: {@link #release()} does that. Only the first call does
     * anything; so does a decision that recorded nothing (denied, unmetered, or a call whose target does not
     * give weight back).
     *
     * @return a stage completed when the store has taken the weight back (or could not: it then stays counted)
     */
    public CompletionStage<Void> giveBack() {
        return returning(WEIGHT);
    }

    /**
     * Ends the call: releases the seats it holds in in-flight limits ({@link Throttle#inFlight()}), so that
     * another call may take them; the weight it counted in rate limits stays counted. Call it once the work
     * the seat guards is done, whatever its outcome; the adapters do so when a throttled method returns or
     * throws, when its response is written, and when its returned stage completes. Only the first call does
     * anything; a seat never released is freed by the store when its lease (the limit's duration) ends.
     *
     * @return a stage completed when the store has released the seats (or could not: they are then freed
     *         when their lease ends)
     */
    public CompletionStage<Void> release() {
        return returning(SEATS);
    }

    /** Takes back the parts asked for that were not taken back before. */
    private CompletionStage<Void> returning(int parts) {
        if (giveBack == null) {
            return CompletableFuture.completedFuture(null);
        }
        int before = returned.getAndUpdate(r -> r | parts);
        int now = parts & ~before;
        if (now == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return giveBack.giveBack((now & WEIGHT) != 0, (now & SEATS) != 0);
    }

    /**
     * The plan whose limits applied to the call: one named in a {@link Throttle#plan()}, {@code unlimited} or
     * {@code blocked}; empty when the target's default limits applied.
     *
     * @return the plan, or empty for the default limits
     */
    public Optional<String> plan() {
        return Optional.ofNullable(plan);
    }

    /**
     * Whether the call was refused because its caller is on plan {@code blocked}.
     *
     * @return {@code true} for a blocked call
     */
    public boolean isBlocked() {
        return !allowed && BLOCKED.equals(plan) && quotas.isEmpty();
    }

    /**
     * Whether the call may proceed.
     *
     * @return {@code true} when the call is allowed (and, unless unmetered, counted)
     */
    public boolean allowed() {
        return allowed;
    }

    /**
     * Whether the call carries no per-limit figures: it was allowed uncounted (the store could not be asked,
     * or plan {@code unlimited}), denied as unavailable, or blocked.
     *
     * @return {@code true} when this decision carries no per-limit figures
     */
    public boolean isUnmetered() {
        return quotas.isEmpty();
    }

    /**
     * Whether this instance decided alone, in its embedded store with scaled limits, because the shared store
     * could not be asked ({@code throttle.on-store-failure=local}).
     *
     * @return {@code true} for a decision taken locally
     */
    public boolean isLocal() {
        return local;
    }

    /**
     * This decision, as taken locally; for the engine, which decides in a store of this instance while the shared
     * one cannot be asked.
     *
     * @return a decision with the same figures for which {@link #isLocal()} is true
     */
    public Decision locally() {
        return local ? this : new Decision(allowed, remaining, retryAfterMillis, resetMillis, quotas, plan, giveBack, true, waitMillis);
    }

    /**
     * This decision, for a call reserved ahead of now ({@code maxWaitMillis}) that proceeds {@code millis} after
     * the store decided; for stores and limiters.
     *
     * @param millis the wait, at least 0
     * @return a decision with the same figures and that wait
     */
    public Decision waiting(long millis) {
        if (millis == waitMillis) {
            return this;
        }
        if (!allowed || millis < 0) {
            throw new IllegalArgumentException("only an allowed call waits, and never a negative time: " + millis);
        }
        return new Decision(allowed, remaining, retryAfterMillis, resetMillis, quotas, plan, giveBack, local, millis);
    }

    /**
     * How long this allowed call waited for its turn ({@code maxWaitMillis}) before it proceeded: it was reserved
     * at the earliest time every limit allowed it, so that waiting callers proceed in reservation order on every
     * instance and no window ever admits more than its limit.
     *
     * @return the wait in milliseconds, from the moment the store decided; 0 when it did not wait
     */
    public long waitedMillis() {
        return waitMillis;
    }

    /**
     * Weight still available after this call: the least over limits and identities.
     *
     * @return the remaining weight; {@link Long#MAX_VALUE} when unmetered and allowed, -1 when unavailable
     */
    public long remaining() {
        return remaining;
    }

    /**
     * For a denied call, the least wait after which the same call would be allowed if nothing else were
     * recorded meanwhile (the largest over the violated limits); for an unavailable decision, the suggested
     * wait before retrying.
     *
     * @return the wait in milliseconds; 0 when allowed
     */
    public long retryAfterMillis() {
        return retryAfterMillis;
    }

    /**
     * {@link #retryAfterMillis()} as a duration.
     *
     * @return the wait before the call may be retried; zero when allowed
     */
    public Duration retryAfter() {
        return Duration.ofMillis(retryAfterMillis);
    }

    /**
     * The wait until the most constrained limit gets weight back (its oldest counted sub-bucket leaves the
     * window).
     *
     * @return the wait in milliseconds; 0 when nothing is counted or the decision is unmetered
     */
    public long resetMillis() {
        return resetMillis;
    }

    /**
     * One entry per limit, in declaration order; figures are those of the most constrained identity.
     *
     * @return the per-limit figures, unmodifiable; empty when unmetered
     */
    public List<Quota> quotas() {
        return quotas;
    }

    @Override
    public String toString() {
        return (allowed ? "allowed" : "denied") + "{remaining=" + remaining + ", retryAfterMillis=" + retryAfterMillis
                + ", resetMillis=" + resetMillis + ", quotas=" + quotas + (plan == null ? "" : ", plan=" + plan)
                + (waitMillis == 0 ? "" : ", waitedMillis=" + waitMillis) + '}';
    }

    /** Decisions are equal when their figures and plan are; how to give weight back is not compared. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Decision d && allowed == d.allowed && remaining == d.remaining
                && retryAfterMillis == d.retryAfterMillis && resetMillis == d.resetMillis && quotas.equals(d.quotas)
                && Objects.equals(plan, d.plan) && waitMillis == d.waitMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(allowed, remaining, retryAfterMillis, resetMillis, quotas, plan);
    }

    /**
     * The figures of one limit.
     *
     * @param policy       the policy name shown to clients (e.g. {@code 1h}, {@code search-1s})
     * @param limit        weight allowed per window
     * @param windowMillis window length, in milliseconds
     * @param remaining    weight left after this call (least over identities)
     * @param resetMillis  for a violated limit: wait until this call would fit; otherwise wait until the oldest
     *                     counted weight leaves the window (0 when nothing is counted); in milliseconds
     * @param violated     whether this limit denied the call
     * @param inFlight     whether the limit counts calls in progress ({@link Throttle#inFlight()}): then
     *                     {@code windowMillis} is the lease, {@code remaining} the seats left and
     *                     {@code resetMillis} the wait until the soonest lease that frees enough ends
     */
    public record Quota(String policy, long limit, long windowMillis, long remaining, long resetMillis,
                        boolean violated, boolean inFlight) {
        /**
         * Creates the figures of one limit.
         *
         * @param policy       the policy name shown to clients; not null
         * @param limit        weight allowed per window
         * @param windowMillis window length, in milliseconds
         * @param remaining    weight left after this call
         * @param resetMillis  for a violated limit, the wait until this call would fit; otherwise the wait
         *                     until the oldest counted weight leaves the window; in milliseconds
         * @param violated     whether this limit denied the call
         * @param inFlight     whether the limit counts calls in progress
         * @throws NullPointerException when {@code policy} is null
         */
        public Quota {
            Objects.requireNonNull(policy, "policy");
        }

        /**
         * Creates the figures of one rate limit (calls made, not calls in progress).
         *
         * @param policy       the policy name shown to clients; not null
         * @param limit        weight allowed per window
         * @param windowMillis window length, in milliseconds
         * @param remaining    weight left after this call
         * @param resetMillis  for a violated limit, the wait until this call would fit; otherwise the wait
         *                     until the oldest counted weight leaves the window; in milliseconds
         * @param violated     whether this limit denied the call
         * @throws NullPointerException when {@code policy} is null
         */
        public Quota(String policy, long limit, long windowMillis, long remaining, long resetMillis, boolean violated) {
            this(policy, limit, windowMillis, remaining, resetMillis, violated, false);
        }
    }
}
