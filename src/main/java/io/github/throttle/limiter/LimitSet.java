package io.github.throttle.limiter;

import io.github.throttle.Outcome;
import io.github.throttle.Caller;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.LimitList;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.metrics.Meters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The limits of a target that apply to calls on one plan (or on none), in declaration order, with all a call
 * needs to be charged on them: per limit the bucket it counts in, who is charged (its resolvers) and how much
 * (a fixed weight or a weigher), and whether a successful call gives its weight back. Also where those calls
 * are counted.
 */
final class LimitSet {

    /**
     * One limit as charged.
     *
     * @param bucket     the bucket it counts in
     * @param bucketHead the head of every key of its bucket
     * @param weigher    gives the weight of each call; null for the fixed {@code weight}
     * @param resolvers  who is charged; none: the caller's default identity
     * @param givesBack  whether a successful call gives its weight back
     */
    record Charged(Limit limit, String bucket, String bucketHead, long weight, ThrottleWeight weigher, List<TaggedResolver> resolvers,
                   boolean givesBack) {
    }

    /**
     * One call charged on these limits: the store call to make, or why no call of its weight could ever pass.
     *
     * @param call       null when overweight
     * @param overweight why the call can never pass (a weight above its limit), or null
     */
    record Charge(StoreCall call, String overweight, Who who) {
    }

    /** Who a call charged: each (bucket, identity), told only when asked (a denial is tallied). */
    interface Who {
        void forEach(java.util.function.BiConsumer<String, String> bucketAndIdentity);
    }

    private final String plan;
    private final List<Charged> charged;
    private final LimitList limits;
    private final KeyCodec codec;
    private final Map<Outcome, Meters.Counter> calls;
    private final ReportLog reportLog;
    private final long maxWaitMillis;
    private final Meters.Timer waits;

    /**
     * @param maxWaitMillis the longest a call may wait for its turn (0: never)
     * @param waits         times the waits of the calls that waited
     */
    LimitSet(String plan, List<Charged> charged, KeyCodec codec, Map<Outcome, Meters.Counter> calls, ReportLog reportLog,
             long maxWaitMillis, Meters.Timer waits) {
        this.plan = plan;
        this.maxWaitMillis = maxWaitMillis;
        this.waits = waits;
        this.charged = List.copyOf(charged);
        this.limits = LimitList.of(charged.stream().map(Charged::limit).toList());
        this.codec = codec;
        this.calls = calls;
        this.reportLog = reportLog;
    }

    /** The plan these limits apply to; null for the default limits. */
    String plan() {
        return plan;
    }

    /** The limits, built once: what a decision against them shows clients is made once too. */
    LimitList limits() {
        return limits;
    }

    /** Times the wait of a call that waited for its turn. */
    void waited(long millis) {
        waits.record(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Counts one call's result, and logs (at most once a minute) what report mode let through. */
    void count(Outcome result) {
        calls.get(result).increment();
        if (result == Outcome.WOULD_DENY) {
            reportLog.wouldDeny();
        }
    }

    /** Whether a successful call gives weight back to some limit. */
    boolean givesBack() {
        return charged.stream().anyMatch(Charged::givesBack);
    }

    /** Whether an allowed call holds seats until it ends: some limit is {@linkplain Limit#inFlight() in flight}. */
    boolean holdsSeats() {
        return limits.limits().stream().anyMatch(Limit::inFlight);
    }

    /**
     * Charges one call: weighs it (each weigher asked once), finds who is charged (each resolver asked once; one
     * that cannot tell is replaced by the caller's default identity, never by a shared one) and builds the store
     * call, each limit for each identity.
     *
     * @param now the time to put in the store call (-1: the store's clock)
     * @throws IllegalStateException when a weigher answers a negative weight
     */
    Charge charge(Caller caller, long now) {
        long[] weights = new long[charged.size()];
        List<ThrottleWeight> asked = new ArrayList<>(1);
        List<Long> answers = new ArrayList<>(1);
        boolean free = true;
        for (int i = 0; i < weights.length; i++) {
            Charged c = charged.get(i);
            weights[i] = c.weigher() == null ? c.weight() : weigh(c.weigher(), caller, asked, answers);
            if (weights[i] > c.limit().limit()) {
                return new Charge(null, "This call weighs " + weights[i] + ", more than the " + c.limit().limit()
                        + " that limit " + c.limit().policy() + " allows in a whole window; it can never pass. Send smaller calls.", null);
            }
            free &= weights[i] == 0;
        }
        Identities identities = new Identities(caller);
        StoreCall.Builder call = StoreCall.builder(now, !free).maxWait(maxWaitMillis);
        for (int i = 0; i < weights.length; i++) {
            Charged c = charged.get(i);
            if (c.resolvers().isEmpty()) {
                call.add(codec.key(c.bucketHead(), identities.fallback()), c.limit(), weights[i], i, c.givesBack());
            }
            for (TaggedResolver r : c.resolvers()) {
                call.add(codec.key(c.bucketHead(), identities.of(r)), c.limit(), weights[i], i, c.givesBack());
            }
        }
        return new Charge(call.build(), null, tally -> {
            java.util.Set<Map.Entry<String, String>> told = new java.util.HashSet<>();
            for (Charged c : charged) {
                if (c.resolvers().isEmpty() && told.add(Map.entry(c.bucket(), identities.fallback()))) {
                    tally.accept(c.bucket(), identities.fallback());
                }
                for (TaggedResolver r : c.resolvers()) {
                    if (told.add(Map.entry(c.bucket(), identities.of(r)))) {
                        tally.accept(c.bucket(), identities.of(r));
                    }
                }
            }
        });
    }

    /** The weigher's answer for this call, asking it only the first time. */
    private static long weigh(ThrottleWeight weigher, Caller caller, List<ThrottleWeight> asked, List<Long> answers) {
        int known = asked.indexOf(weigher);
        if (known >= 0) {
            return answers.get(known);
        }
        long w = weigher.weigh(caller);
        if (w < 0) {
            throw new IllegalStateException(weigher.getClass().getName() + " weighed a call at " + w + "; a weight is 0 or more");
        }
        asked.add(weigher);
        answers.add(w);
        return w;
    }

    /** The identities of one call, each resolver asked once. */
    private static final class Identities {
        private final Caller caller;
        private final List<TaggedResolver> asked = new ArrayList<>(2);
        private final List<String> answers = new ArrayList<>(2);
        private String fallback;

        Identities(Caller caller) {
            this.caller = caller;
        }

        String of(TaggedResolver r) {
            int known = asked.indexOf(r);
            if (known >= 0) {
                return answers.get(known);
            }
            String id = r.identify(caller);
            if (id == null) {
                id = fallback();
            }
            asked.add(r);
            answers.add(id);
            return id;
        }

        String fallback() {
            if (fallback == null) {
                fallback = TaggedResolver.defaultIdentity(caller);
            }
            return fallback;
        }
    }

    @Override
    public String toString() {
        return (plan == null ? "" : plan + ":") + limits;
    }
}
