package io.github.throttle;

import java.util.List;
import java.util.Objects;

/**
 * How stores and limiters complete a {@link Decision} they took: the plan that applied, the outcome settled, how
 * the call ends, whether it was taken locally or waits for its turn. Not for applications: they read decisions.
 */
public final class Decisions {

    private Decisions() {
    }

    /**
     * A decision from its per-limit figures, as {@link Decision#of(boolean, List)}, taken against {@code policies}:
     * shared by the decisions taken against the same limits, so that what is made of them once (a response field)
     * serves every call. When they do not describe the quotas (two limits of one name and window, the tighter one
     * shown), the quotas' own policies are described instead.
     *
     * @param quotas   the figures of each limit, in the order of the policies; copied unless unmodifiable already
     * @param policies the limits the figures are of
     * @return the decision
     */
    public static Decision of(boolean allowed, List<Decision.Quota> quotas, Policies policies) {
        return Decision.of(allowed, quotas, Objects.requireNonNull(policies, "policies"));
    }

    /** @return the limits the decision's quotas are figures of, one policy per quota (none when unmetered) */
    public static Policies policies(Decision d) {
        return d.policies();
    }

    /**
     * The decision, as taken for a call on {@code plan}.
     *
     * @param d    the decision
     * @param plan the plan whose limits applied; {@code null} or empty for the default limits
     * @return a decision with the same figures and that plan
     */
    public static Decision onPlan(Decision d, String plan) {
        String p = plan == null || plan.isEmpty() ? null : plan;
        return Objects.equals(p, d.plan().orElse(null)) ? d : d.with(d.outcome(), p, d.ending(), d.waitedMillis());
    }

    /**
     * The decision, with the outcome the limiter settled for the call (e.g. {@link Outcome#WOULD_DENY} in report
     * mode); the figures stay.
     *
     * @param d       the decision
     * @param outcome what happened to the call
     * @return a decision with the same figures and that outcome
     */
    public static Decision as(Decision d, Outcome outcome) {
        return outcome == d.outcome() ? d
                : d.with(Objects.requireNonNull(outcome, "outcome"), d.plan().orElse(null), d.ending(), d.waitedMillis());
    }

    /**
     * The decision of a call that ends with {@code ending}: what it recorded comes back through it.
     *
     * @param d      the decision of an allowed call
     * @param ending takes back the weight and seats the call recorded
     * @return a decision with the same figures whose {@link Decision#ending()} is {@code ending}
     */
    public static Decision endingWith(Decision d, CallEnding ending) {
        return d.with(d.outcome(), d.plan().orElse(null), Objects.requireNonNull(ending, "ending"), d.waitedMillis());
    }

    /**
     * The decision, as taken by this instance alone while the shared store cannot be asked.
     *
     * @param d the decision of this instance's store
     * @return a decision with the same figures for which {@link Decision#isLocal()} is true
     */
    public static Decision locally(Decision d) {
        return d.isLocal() ? d : as(d, d.allowed() ? Outcome.LOCAL_ALLOWED : Outcome.LOCAL_DENIED);
    }

    /**
     * The decision of a call reserved ahead of now that proceeds {@code millis} after the store decided.
     *
     * @param d      the decision of an allowed call
     * @param millis the wait, at least 0
     * @return a decision with the same figures and that wait
     * @throws IllegalArgumentException when the call is denied or the wait negative
     */
    public static Decision waiting(Decision d, long millis) {
        if (millis == d.waitedMillis()) {
            return d;
        }
        if (!d.allowed() || millis < 0) {
            throw new IllegalArgumentException("only an allowed call waits, and never a negative time: " + millis);
        }
        return d.with(d.outcome(), d.plan().orElse(null), d.ending(), millis);
    }
}
