package io.github.throttle.engine;

import io.github.throttle.CallEnding;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.function.ToIntFunction;

/**
 * What an allowed, recorded call took in its store, pair by pair — weight counted in a window, weight reserved ahead
 * of now, a seat — or a part of it: the one thing every give-back is made of ({@link Store#giveBack}), whoever asks
 * for it: the caller's ending ({@link CallEnding}: weight of a success, seats, or everything for a call that never
 * ran), a reply that came after its caller stopped waiting, a part of a call that another part denied, a failure.
 * One pair per count (a count shared by several limits of one key comes back once, through the first pair holding
 * it).
 */
public final class Took {

    private static final Took NOTHING = new Took(null, new int[0], new Taken[0]);

    /** The call as it was decided. */
    private final StoreCall call;
    /** The pairs of {@link #call} in this, in pair order. */
    private final int[] pairs;
    /** What each of {@link #pairs} took. */
    private final Taken[] taken;
    /** The give-back: {@link #pairs} as a call of their own, each with the weight its count recorded. */
    private final StoreCall back;

    private Took(StoreCall call, int[] pairs, Taken[] taken) {
        this.call = call;
        this.pairs = pairs;
        this.taken = taken;
        this.back = pairs.length == 0 ? null : call.givingBack(pairs);
    }

    /** Everything {@code call} took, by its store's {@code reply}: nothing when it was denied or only reported. */
    public static Took of(StoreCall call, StoreReply reply) {
        if (!reply.allowed() || !call.record()) {
            return NOTHING;
        }
        int[] of = call.takingPairs();
        Taken[] t = new Taken[of.length];
        for (int i = 0; i < of.length; i++) {
            t[i] = reply.taken(of[i]);
        }
        return new Took(call, of, t);
    }

    /**
     * What {@code call} may have taken when its outcome is unknown (its reply never came, or it failed in the store
     * part-way) and can be given back blindly: its seats, held under the lease id it chose ({@link
     * StoreCall#leaseId()}). Releasing a lease that is not held does nothing, so this is safe whatever happened.
     * Its weight in rate windows cannot be told apart from other calls' and stays counted (the safe side).
     */
    public static Took unknown(StoreCall call) {
        if (!call.record() || call.leaseId() == 0) {
            return NOTHING;
        }
        Taken lease = new Taken.Lease(call.leaseId());
        int[] of = call.takingPairs();
        int[] seats = new int[of.length];
        Taken[] t = new Taken[of.length];
        int n = 0;
        for (int p : of) {
            if (call.limit(p).inFlight() && call.countWeight(p) > 0) {
                seats[n] = p;
                t[n++] = lease;
            }
        }
        return n == 0 ? NOTHING : new Took(call, Arrays.copyOf(seats, n), Arrays.copyOf(t, n));
    }

    /** The part of this of the pairs (of the call as decided) that {@code keep} accepts. */
    public Took only(IntPredicate keep) {
        int[] of = new int[pairs.length];
        Taken[] t = new Taken[pairs.length];
        int n = 0;
        for (int i = 0; i < pairs.length; i++) {
            if (keep.test(pairs[i])) {
                of[n] = pairs[i];
                t[n++] = taken[i];
            }
        }
        return n == pairs.length ? this : n == 0 ? NOTHING : new Took(call, Arrays.copyOf(of, n), Arrays.copyOf(t, n));
    }

    /**
     * The part of this that comes back with these parts of a call's ending: {@link CallEnding.Part#WEIGHT} the weight
     * of pairs that give it back ({@code skipSuccessful}, programmatic calls), {@link CallEnding.Part#SEATS} the seats,
     * {@link CallEnding.Part#REST} the weight of every other pair (a call that never ran comes back whole).
     */
    public Took only(Set<CallEnding.Part> parts) {
        return only(p -> parts.contains(call.limit(p).inFlight() ? CallEnding.Part.SEATS
                : call.returnable(p) ? CallEnding.Part.WEIGHT : CallEnding.Part.REST));
    }

    /** This split by the group of each pair's key (a store that gives back slot by slot), groups in first-seen order. */
    public List<Took> byGroup(ToIntFunction<String> groupOfKey) {
        Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i++) {
            groups.computeIfAbsent(groupOfKey.applyAsInt(back.key(keyOf(i))), g -> new ArrayList<>()).add(i);
        }
        if (groups.size() <= 1) {
            return isEmpty() ? List.of() : List.of(this);
        }
        List<Took> parts = new ArrayList<>(groups.size());
        for (List<Integer> of : groups.values()) {
            int[] p = new int[of.size()];
            Taken[] t = new Taken[of.size()];
            for (int j = 0; j < p.length; j++) {
                p[j] = pairs[of.get(j)];
                t[j] = taken[of.get(j)];
            }
            parts.add(new Took(call, p, t));
        }
        return parts;
    }

    /** Whether there is nothing to give back. */
    public boolean isEmpty() {
        return pairs.length == 0;
    }

    /** The give-back as a call: the pairs of this, each with the weight its count recorded; null when empty. */
    public StoreCall call() {
        return back;
    }

    /** What pair {@code pair} of {@link #call()} took. */
    public Taken taken(int pair) {
        return taken[pair];
    }

    /** The key of pair {@code i} of {@link #call()}. */
    private int keyOf(int i) {
        int k = 0;
        while (back.firstPair(k + 1) <= i) {
            k++;
        }
        return k;
    }

    @Override
    public String toString() {
        return "Took" + Arrays.toString(taken) + (back == null ? "" : " of " + Arrays.toString(back.keys()));
    }
}
