package io.github.throttle;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The limits a decision was taken against, as clients see them: per quota of the decision, in the same order, its
 * policy name, limit, window and whether it counts calls in progress. What does not change from
 * call to call: built once per set of limits (once more for the scaled limits of local counting) and shared,
 * immutable, by every decision taken against them; an adapter keeps its one rendering of it (a response field)
 * here, made on first use. Not for applications: they read a decision's quotas. It knows nothing of decisions.
 */
public final class Policies {

    private static final Policies NONE = new Policies(List.of());

    private final List<Policy> list;
    /** The adapter's rendering, made once. */
    private volatile String rendered;

    /**
     * One limit as clients see it.
     *
     * @param name         the policy name
     * @param limit        weight allowed per window
     * @param windowMillis window length (for an in-flight limit, the lease), in milliseconds
     * @param inFlight     whether the limit counts calls in progress
     */
    public record Policy(String name, long limit, long windowMillis, boolean inFlight) {
        /** @throws NullPointerException when {@code name} is null */
        public Policy {
            Objects.requireNonNull(name, "name");
        }
    }

    private Policies(List<Policy> list) {
        this.list = list;
    }

    /** @return these policies, copied; none for an empty list */
    public static Policies of(List<Policy> policies) {
        return policies.isEmpty() ? NONE : new Policies(List.copyOf(policies));
    }

    /** @return one policy per quota, in the order of the quotas */
    public List<Policy> list() {
        return list;
    }

    /**
     * The adapter's rendering of these policies: made by {@code render} on first use, then kept. One rendering
     * is kept: every caller passes the same function.
     *
     * @param render renders these policies (a response field); the same function on every call
     * @return its text
     */
    public String rendered(Function<Policies, String> render) {
        String r = rendered;
        if (r == null) {
            r = render.apply(this);
            rendered = r;
        }
        return r;
    }

    @Override
    public String toString() {
        return list.toString();
    }
}
