package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.metrics.Meters;

import java.util.List;
import java.util.Map;

/**
 * The limits of a target that apply to calls on one plan (or on none), in declaration order: each with the
 * weight it charges (fixed, or given by a weigher), the bucket it counts in, the resolvers that tell who is
 * charged and whether a successful call gives its weight back. Also where those calls are counted.
 */
final class LimitSet {

    /** The {@code plan} tag of calls on no plan. */
    static final String DEFAULT_PLAN = "default";

    private final String plan;
    private final List<Limit> limits;
    private final long[] weights;
    /** Per limit, the index of its weigher among the target's, or -1 for its fixed weight. */
    private final int[] weigherOf;
    private final String[] bucketHeads;
    /** Per limit, its resolvers as indexes into the target's; none = the caller's default identity. */
    private final int[][] resolversOf;
    private final boolean[] givesBack;
    /** Whether a weigher gives some limit's weight. */
    private final boolean weighed;
    private final Map<CallResult, Meters.Counter> calls;

    LimitSet(String plan, List<Limit> limits, long[] weights, int[] weigherOf, String[] bucketHeads, int[][] resolversOf,
             boolean[] givesBack, Map<CallResult, Meters.Counter> calls) {
        this.plan = plan;
        this.limits = limits;
        this.weights = weights;
        this.weigherOf = weigherOf;
        this.bucketHeads = bucketHeads;
        this.resolversOf = resolversOf;
        this.givesBack = givesBack;
        this.weighed = java.util.Arrays.stream(weigherOf).anyMatch(w -> w >= 0);
        this.calls = calls;
    }

    /** The plan these limits apply to; null for the default limits. */
    String plan() {
        return plan;
    }

    List<Limit> limits() {
        return limits;
    }

    void count(CallResult result) {
        calls.get(result).increment();
    }

    /** Whether a limit charges the caller's default identity. */
    boolean chargesDefaultIdentity() {
        for (int[] of : resolversOf) {
            if (of.length == 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether a successful call gives weight back to some limit. */
    boolean givesBack() {
        for (boolean b : givesBack) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    /**
     * The weight of this call for each limit; each weigher is asked once.
     *
     * @throws IllegalStateException when a weigher answers a negative weight
     */
    long[] weigh(Caller caller, List<ThrottleWeight> weighers) {
        if (!weighed) {
            // fixed weights: read only, never changed
            return weights;
        }
        long[] asked = new long[weighers.size()];
        boolean[] done = new boolean[weighers.size()];
        long[] w = weights.clone();
        for (int i = 0; i < w.length; i++) {
            int of = weigherOf[i];
            if (of >= 0) {
                if (!done[of]) {
                    asked[of] = weighers.get(of).weigh(caller);
                    done[of] = true;
                    if (asked[of] < 0) {
                        throw new IllegalStateException(weighers.get(of).getClass().getName() + " weighed a call at "
                                + asked[of] + "; a weight is 0 or more");
                    }
                }
                w[i] = asked[of];
            }
        }
        return w;
    }

    /** Why no call of these weights could ever pass (a weight above its limit), or null. */
    String overweight(long[] w) {
        for (int i = 0; i < w.length; i++) {
            if (w[i] > limits.get(i).limit()) {
                return "This call weighs " + w[i] + ", more than the " + limits.get(i).limit() + " that limit "
                        + limits.get(i).policy() + " allows in a whole window; it can never pass. Send smaller calls.";
            }
        }
        return null;
    }

    /** Whether the call is free: nothing to charge. */
    static boolean free(long[] w) {
        for (long x : w) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The store call of one invocation: each limit for each identity charged.
     *
     * @param identities per resolver of the target its identity, then the default identity
     */
    StoreCall storeCall(String[] identities, long[] w, KeyCodec codec, long now) {
        int fallback = identities.length - 1;
        StoreCall.Builder call = StoreCall.builder(now, !free(w));
        for (int i = 0; i < limits.size(); i++) {
            int[] of = resolversOf[i];
            if (of.length == 0) {
                call.add(codec.key(bucketHeads[i], identities[fallback]), limits.get(i), w[i], i, givesBack[i]);
            }
            for (int r : of) {
                call.add(codec.key(bucketHeads[i], identities[r]), limits.get(i), w[i], i, givesBack[i]);
            }
        }
        return call.build();
    }

    @Override
    public String toString() {
        return (plan == null ? "" : plan + ":") + limits;
    }
}
