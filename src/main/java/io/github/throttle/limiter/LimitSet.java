package io.github.throttle.limiter;

import io.github.throttle.Outcome;
import io.github.throttle.Caller;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Leases;
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
    private final Chargees who;
    private final KeyCodec codec;
    private final Map<Outcome, Meters.Counter> calls;
    private final ReportLog reportLog;
    private final long maxWaitMillis;
    private final Meters.Timer waits;
    private final Leases.Tally leasing;

    /**
     * @param maxWaitMillis the longest a call may wait for its turn (0: never)
     * @param waits         times the waits of the calls that waited
     * @param leasing       the meters of the bucket's leases; null when these calls never take from a lease
     */
    LimitSet(String plan, List<Charged> charged, KeyCodec codec, Map<Outcome, Meters.Counter> calls, ReportLog reportLog,
             long maxWaitMillis, Meters.Timer waits, Leases.Tally leasing) {
        this.leasing = leasing;
        this.plan = plan;
        this.maxWaitMillis = maxWaitMillis;
        this.waits = waits;
        this.charged = List.copyOf(charged);
        this.limits = LimitList.of(charged.stream().map(Charged::limit).toList());
        this.who = new Chargees(this.charged);
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

    /** The meters of the leases these calls take from; null when they never take from one. */
    Leases.Tally leasing() {
        return leasing;
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
     * call, each limit for each identity, each key made once.
     *
     * @param now the time to put in the store call (-1: the store's clock)
     * @throws IllegalStateException when a weigher answers a negative weight
     */
    Charge charge(Caller caller, long now) {
        long[] weights = new long[charged.size()];
        long[] weighed = who.weighers.length == 0 ? null : new long[who.weighers.length];
        boolean free = true;
        for (int i = 0; i < weights.length; i++) {
            Charged c = charged.get(i);
            int w = who.weigherOf[i];
            weights[i] = w < 0 ? c.weight() : weigh(w, caller, weighed);
            if (weights[i] > c.limit().limit()) {
                return new Charge(null, "This call weighs " + weights[i] + ", more than the " + c.limit().limit()
                        + " that limit " + c.limit().policy() + " allows in a whole window; it can never pass. Send smaller calls.", null);
            }
            free &= weights[i] == 0;
        }
        Identities identities = new Identities(caller, who.resolvers);
        String[] keys = new String[who.slotHead.length];
        StoreCall.Builder call = StoreCall.builder(now, !free).maxWait(maxWaitMillis);
        for (int i = 0; i < weights.length; i++) {
            Charged c = charged.get(i);
            for (int slot : who.slotsOf[i]) {
                if (keys[slot] == null) {
                    keys[slot] = codec.key(who.slotHead[slot], identities.of(who.slotResolver[slot]));
                }
                call.add(keys[slot], c.limit(), weights[i], i, c.givesBack());
            }
        }
        return new Charge(call.build(), null, tally -> {
            java.util.Set<Map.Entry<String, String>> told = new java.util.HashSet<>();
            for (int[] slots : who.slotsOf) {
                for (int slot : slots) {
                    String identity = identities.of(who.slotResolver[slot]);
                    if (told.add(Map.entry(who.slotBucket[slot], identity))) {
                        tally.accept(who.slotBucket[slot], identity);
                    }
                }
            }
        });
    }

    /** Weigher {@code w}'s answer for this call, asking it only the first time (an answer is kept plus one). */
    private long weigh(int w, Caller caller, long[] weighed) {
        if (weighed[w] > 0) {
            return weighed[w] - 1;
        }
        long answer = who.weighers[w].weigh(caller);
        if (answer < 0) {
            throw new IllegalStateException(who.weighers[w].getClass().getName() + " weighed a call at " + answer
                    + "; a weight is 0 or more");
        }
        weighed[w] = answer + 1;
        return answer;
    }

    /**
     * Who the limits charge, worked out once: the distinct weighers and resolvers, and the keys each limit is charged
     * on (one slot per bucket and resolver), so that a call asks each weigher and resolver once and makes each key once.
     */
    private static final class Chargees {
        final ThrottleWeight[] weighers;
        /** Per limit, the index of its weigher; -1 for a fixed weight. */
        final int[] weigherOf;
        final TaggedResolver[] resolvers;
        /** Per limit, its key slots, in the order its identities are charged. */
        final int[][] slotsOf;
        final String[] slotBucket;
        final String[] slotHead;
        /** Per slot, the index of its resolver; -1 for the caller's default identity. */
        final int[] slotResolver;

        Chargees(List<Charged> charged) {
            List<ThrottleWeight> ws = new ArrayList<>();
            List<TaggedResolver> rs = new ArrayList<>();
            List<String[]> slots = new ArrayList<>();
            List<Integer> slotResolvers = new ArrayList<>();
            weigherOf = new int[charged.size()];
            slotsOf = new int[charged.size()][];
            for (int i = 0; i < charged.size(); i++) {
                Charged c = charged.get(i);
                weigherOf[i] = c.weigher() == null ? -1 : indexOf(ws, c.weigher());
                int[] of = new int[Math.max(1, c.resolvers().size())];
                for (int j = 0; j < of.length; j++) {
                    int r = c.resolvers().isEmpty() ? -1 : indexOf(rs, c.resolvers().get(j));
                    of[j] = slots.size();
                    for (int s = 0; s < slots.size(); s++) {
                        if (slots.get(s)[1].equals(c.bucketHead()) && slotResolvers.get(s) == r) {
                            of[j] = s;
                        }
                    }
                    if (of[j] == slots.size()) {
                        slots.add(new String[] {c.bucket(), c.bucketHead()});
                        slotResolvers.add(r);
                    }
                }
                slotsOf[i] = of;
            }
            weighers = ws.toArray(ThrottleWeight[]::new);
            resolvers = rs.toArray(TaggedResolver[]::new);
            slotBucket = slots.stream().map(b -> b[0]).toArray(String[]::new);
            slotHead = slots.stream().map(b -> b[1]).toArray(String[]::new);
            slotResolver = slotResolvers.stream().mapToInt(Integer::intValue).toArray();
        }

        private static <T> int indexOf(List<T> distinct, T t) {
            int i = distinct.indexOf(t);
            if (i < 0) {
                distinct.add(t);
                return distinct.size() - 1;
            }
            return i;
        }
    }

    /** The identities of one call, each resolver asked once, by its index; -1: the caller's default identity. */
    private static final class Identities {
        private final Caller caller;
        private final TaggedResolver[] resolvers;
        /** Per resolver, its answer; last, the default identity. */
        private final String[] ids;

        Identities(Caller caller, TaggedResolver[] resolvers) {
            this.caller = caller;
            this.resolvers = resolvers;
            this.ids = new String[resolvers.length + 1];
        }

        String of(int r) {
            if (r < 0) {
                if (ids[resolvers.length] == null) {
                    ids[resolvers.length] = TaggedResolver.defaultIdentity(caller);
                }
                return ids[resolvers.length];
            }
            if (ids[r] == null) {
                String id = resolvers[r].identify(caller);
                ids[r] = id != null ? id : of(-1);
            }
            return ids[r];
        }
    }

    @Override
    public String toString() {
        return (plan == null ? "" : plan + ":") + limits;
    }
}
