package io.github.throttle.engine;

import io.github.throttle.Policies;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The limits a call is checked against, in the caller's order ({@link StoreCall#limitIndex(int)} indexes them), with
 * the {@link Policies} clients see of them: each policy named once, as a decision shows them. Immutable, built once
 * per set of limits (a target's limits on a plan, rebuilt when an override changes them) and shared by its calls,
 * as are the scaled limits a local store counts with while the store cannot be asked ({@link #scaled}).
 */
public final class LimitList {

    private final List<Limit> limits;
    private final Policies policies;
    private final boolean eachNamedOnce;
    /** The scaled limits of local counting, made on first use. */
    private volatile Scaled scaled;

    private record Scaled(double share, LimitList limits) {
    }

    private LimitList(List<Limit> limits) {
        // a caller's list may leave an index unused (null)
        this.limits = Collections.unmodifiableList(new ArrayList<>(limits));
        this.policies = Policies.of(shown(this.limits));
        this.eachNamedOnce = policies.list().size() == limits.size();
    }

    /** @return these limits, copied, in this order */
    public static LimitList of(List<Limit> limits) {
        return new LimitList(limits);
    }

    /** The limits, in the caller's order. */
    public List<Limit> limits() {
        return limits;
    }

    public Limit get(int i) {
        return limits.get(i);
    }

    public int size() {
        return limits.size();
    }

    /**
     * The policies of a decision taken against these limits: one per limit, in order, except that a limit of the
     * same name counting the same window as an earlier one is shown there, once ({@link ReplyFolding}).
     */
    public Policies policies() {
        return policies;
    }

    /** Whether each limit is a policy of its own: no two (none unused) share a name and a window. */
    public boolean eachNamedOnce() {
        return eachNamedOnce;
    }

    /** These limits as a local store enforces them ({@link FailurePolicy#scale}), made once per share. */
    public LimitList scaled(FailurePolicy policy) {
        Scaled s = scaled;
        if (s == null || s.share() != policy.localShare()) {
            List<Limit> each = new ArrayList<>(limits.size());
            for (Limit l : limits) {
                each.add(l == null ? null : policy.scale(l));
            }
            s = new Scaled(policy.localShare(), new LimitList(each));
            scaled = s;
        }
        return s.limits();
    }

    private static List<Policies.Policy> shown(List<Limit> limits) {
        List<Policies.Policy> shown = new ArrayList<>(limits.size());
        List<Limit> of = new ArrayList<>(limits.size());
        for (Limit l : limits) {
            if (l != null && of.stream().noneMatch(o -> o.policy().equals(l.policy()) && o.sameWindow(l))) {
                of.add(l);
                shown.add(new Policies.Policy(l.policy(), l.limit(), l.durationMillis(), l.inFlight()));
            }
        }
        return shown;
    }

    @Override
    public String toString() {
        return limits.toString();
    }
}
