package io.github.throttle;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

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

    private static final Decision UNMETERED = new Decision(Outcome.FAILURE_ALLOWED, true, Long.MAX_VALUE, 0, 0, List.of(),
            Policies.of(List.of()), null, CallEnding.NONE, 0);
    private static final long UNAVAILABLE = -1;
    private static final String BLOCKED = "blocked";

    private final Outcome outcome;
    private final boolean allowed;
    private final long remaining;
    private final long retryAfterMillis;
    private final long resetMillis;
    private final List<Quota> quotas;
    /** The limits the quotas are figures of, shared by the decisions taken against them. */
    private final Policies policies;
    /** The plan whose limits applied; null for the default limits. */
    private final String plan;
    /** How the call ends: what it recorded comes back through it. */
    private final CallEnding ending;
    /** How long an allowed call waits for its reservation before it proceeds ({@code maxWaitMillis}); else 0. */
    private final long waitMillis;

    Decision(Outcome outcome, boolean allowed, long remaining, long retryAfterMillis, long resetMillis,
                     List<Quota> quotas, Policies policies, String plan, CallEnding ending, long waitMillis) {
        this.outcome = outcome;
        this.allowed = allowed;
        this.remaining = remaining;
        this.retryAfterMillis = retryAfterMillis;
        this.resetMillis = resetMillis;
        this.quotas = quotas;
        this.policies = policies;
        this.plan = plan;
        this.ending = ending;
        this.waitMillis = waitMillis;
    }

    /** This decision with other parts; the figures stay. For {@link Decisions}. */
    Decision with(Outcome outcome, String plan, CallEnding ending, long waitMillis) {
        return new Decision(outcome, allowed, remaining, retryAfterMillis, resetMillis, quotas, policies, plan, ending, waitMillis);
    }

    /** The limits the quotas are figures of. For {@link Decisions}. */
    Policies policies() {
        return policies;
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
        return of(allowed, quotas, null);
    }

    /** As {@link #of(boolean, List)}, against {@code policies} when they describe the quotas. */
    static Decision of(boolean allowed, List<Quota> figures, Policies policies) {
        List<Quota> quotas = List.copyOf(figures);
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
        Policies against = policies != null && describe(policies, quotas) ? policies : policiesOf(quotas);
        return new Decision(allowed ? Outcome.ALLOWED : Outcome.DENIED, allowed, remaining, allowed ? 0 : retry, reset,
                quotas, against, null, CallEnding.NONE, 0);
    }

    /** The policies the figures of {@code quotas} were taken against, in their order. */
    private static Policies policiesOf(List<Quota> quotas) {
        List<Policies.Policy> list = new java.util.ArrayList<>(quotas.size());
        for (Quota q : quotas) {
            list.add(new Policies.Policy(q.policy(), q.limit(), q.windowMillis(), q.inFlight()));
        }
        return Policies.of(list);
    }

    /** Whether {@code policies} are those of {@code quotas}, one each, in the same order. */
    private static boolean describe(Policies policies, List<Quota> quotas) {
        List<Policies.Policy> list = policies.list();
        if (quotas.size() != list.size()) {
            return false;
        }
        for (int i = 0; i < list.size(); i++) {
            Policies.Policy p = list.get(i);
            Quota q = quotas.get(i);
            if (!p.name().equals(q.policy()) || p.limit() != q.limit() || p.windowMillis() != q.windowMillis() || p.inFlight() != q.inFlight()) {
                return false;
            }
        }
        return true;
    }

    /** @return the decision taken when the store could not be asked and failures are configured to allow: allowed, uncounted, with no figures */
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
        return new Decision(Outcome.FAILURE_DENIED, false, UNAVAILABLE, Math.max(1, retryAfterMillis), 0, List.of(),
                UNMETERED.policies, null, CallEnding.NONE, 0);
    }

    /** @return the decision of a call on plan {@code blocked}: refused uncounted, with no figures; HTTP answers {@code 403 Forbidden} */
    public static Decision blocked() {
        return new Decision(Outcome.BLOCKED, false, 0, 0, 0, List.of(), UNMETERED.policies, BLOCKED, CallEnding.NONE, 0);
    }

    /** @return what happened to the call, as metrics count it */
    public Outcome outcome() {
        return outcome;
    }

    /**
     * How the call ends: its weight given back, its seats released, each at most once. A decision that recorded
     * nothing (denied, unmetered, or a call whose target does not give weight back) ends with
     * {@link CallEnding#NONE}.
     *
     * @return the ending of this call
     */
    public CallEnding ending() {
        return ending;
    }

    /**
     * @return {@code ending().giveBack()}: see {@link CallEnding#giveBack()}
     * @deprecated use {@code ending().giveBack()}
     */
    @Deprecated(since = "0.1.0")
    public CompletionStage<Void> giveBack() {
        return ending.giveBack();
    }

    /**
     * @return {@code ending().release()}: see {@link CallEnding#release()}
     * @deprecated use {@code ending().release()}
     */
    @Deprecated(since = "0.1.0")
    public CompletionStage<Void> release() {
        return ending.release();
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

    /** @return whether the call was refused because its caller is on plan {@code blocked} */
    public boolean isBlocked() {
        return !allowed && BLOCKED.equals(plan) && quotas.isEmpty();
    }

    /** @return whether the call may proceed (and, unless unmetered, was counted) */
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
        return outcome == Outcome.LOCAL_ALLOWED || outcome == Outcome.LOCAL_DENIED;
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
     * @return weight still available after this call, the least over limits and identities; {@link Long#MAX_VALUE}
     *         when unmetered and allowed, -1 when unavailable
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

    /** @return {@link #retryAfterMillis()} as a duration: the wait before the call may be retried; zero when allowed */
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

    /** @return one entry per limit, in declaration order, of the most constrained identity; empty when unmetered */
    public List<Quota> quotas() {
        return quotas;
    }

    @Override
    public String toString() {
        return (allowed ? "allowed" : "denied") + "{remaining=" + remaining + ", retryAfterMillis=" + retryAfterMillis
                + ", resetMillis=" + resetMillis + ", quotas=" + quotas + (plan == null ? "" : ", plan=" + plan)
                + (waitMillis == 0 ? "" : ", waitedMillis=" + waitMillis) + '}';
    }

    /** Decisions are equal when their outcome, figures and plan are; how the call ends is not compared. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Decision d && outcome == d.outcome && allowed == d.allowed && remaining == d.remaining
                && retryAfterMillis == d.retryAfterMillis && resetMillis == d.resetMillis && quotas.equals(d.quotas)
                && Objects.equals(plan, d.plan) && waitMillis == d.waitMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(outcome, allowed, remaining, retryAfterMillis, resetMillis, quotas, plan);
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
        /** @throws NullPointerException when {@code policy} is null */
        public Quota {
            Objects.requireNonNull(policy, "policy");
        }

        /** The figures of one rate limit (calls made, not calls in progress): {@code inFlight} is false. */
        public Quota(String policy, long limit, long windowMillis, long remaining, long resetMillis, boolean violated) {
            this(policy, limit, windowMillis, remaining, resetMillis, violated, false);
        }
    }
}
