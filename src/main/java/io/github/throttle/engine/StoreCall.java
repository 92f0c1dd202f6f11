package io.github.throttle.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One decision to take in a store: pairs of a key (a bucket and an identity) and a limit, each with the
 * weight to charge. Every pair is decided together; the call is allowed only if every pair allows it.
 *
 * <p>Pairs are grouped by key, keys in first-seen order. {@link #limitIndex(int)} tells which of the caller's
 * limits a pair counts for, so that figures can be folded back over identities. A pair may be
 * {@linkplain #returnable(int) returnable}: its weight can be given back after the call (the store then tells
 * which sub-bucket it recorded in). A pair of an {@linkplain Limit#inFlight() in-flight} limit always is: the
 * store tells the lease its seat holds, and giving it back releases the seat.
 *
 * <p>One key, one window, one count: pairs of one key whose limits count the same window (two resolvers that gave
 * one identity, an override that made two windows equal) share that count. The call adds its weight there once,
 * the largest of their weights ({@link #countWeight(int)}); each limit is still checked with its own weight: a store
 * allows a pair when the count plus {@link #countWeight(int)} is at most {@link #bound(int)}, which is that same
 * test. A store records a shared count once, through the first pair holding it ({@link #sharesCountWith(int)}).
 */
public final class StoreCall {

    /** A caller's lease ids are drawn from [2^52, 2^53 - 2^32): exact as doubles, far from any other. */
    static final long FIRST_LEASE_ID = 1L << 52;
    static final long LAST_LEASE_ID = (1L << 53) - (1L << 32);

    private final long nowMillis;
    private final boolean record;
    private final long maxWaitMillis;
    /** The id of the lease each seat this call takes holds; 0: the store chooses (no seat, or only a report). */
    private final long leaseId;
    private final String[] keys;
    /** Pairs of key {@code i} are {@code [firstPair[i], firstPair[i + 1])}. */
    private final int[] firstPair;
    private final Pair[] pairs;
    /** Which pairs share a count (one key, one window), with what weight and whether it may come back. */
    private final SharedCounts counts;

    private record Pair(String key, Limit limit, long weight, int limitIndex, boolean returnable) {
    }

    private StoreCall(long nowMillis, boolean record, long maxWaitMillis, long leaseId, List<Pair> added) {
        this.nowMillis = nowMillis;
        this.record = record;
        this.maxWaitMillis = maxWaitMillis;
        this.leaseId = leaseId != 0 || !record || added.stream().noneMatch(p -> p.limit().inFlight()) ? leaseId
                : ThreadLocalRandom.current().nextLong(FIRST_LEASE_ID, LAST_LEASE_ID);
        String[] keyOrder = new String[added.size()];
        int keyCount = 0;
        for (Pair p : added) {
            int k = 0;
            while (k < keyCount && !keyOrder[k].equals(p.key())) {
                k++;
            }
            if (k == keyCount) {
                keyOrder[keyCount++] = p.key();
            }
        }
        this.keys = keyCount == keyOrder.length ? keyOrder : java.util.Arrays.copyOf(keyOrder, keyCount);
        this.firstPair = new int[keys.length + 1];
        this.pairs = new Pair[added.size()];
        int n = 0;
        for (int k = 0; k < keys.length; k++) {
            firstPair[k] = n;
            for (Pair p : added) {
                if (p.key().equals(keys[k])) {
                    pairs[n++] = p;
                }
            }
        }
        firstPair[keys.length] = n;
        this.counts = new SharedCounts(firstPair, pairs.length, (p, q) -> pairs[p].limit().sameWindow(pairs[q].limit()),
                p -> pairs[p].weight(), p -> pairs[p].returnable());
    }

    /**
     * @param nowMillis milliseconds since the epoch by the caller's clock, or -1 to use the store's clock
     * @param record    whether an allowed call is recorded ({@code false}: only report usage)
     */
    public static Builder builder(long nowMillis, boolean record) {
        return new Builder(nowMillis, record);
    }

    /** Milliseconds since the epoch given by the caller's clock, or -1 to use the store's clock. */
    public long nowMillis() {
        return nowMillis;
    }

    /** Whether an allowed call is recorded ({@code false}: only report usage). */
    public boolean record() {
        return record;
    }

    /**
     * The longest the call may wait, in milliseconds: a recorded call that does not fit now but fits within
     * that wait is reserved at the earliest time it fits (0: it never waits).
     */
    public long maxWaitMillis() {
        return maxWaitMillis;
    }

    /**
     * The id of the lease every seat this call takes holds: chosen here, at random, for a recorded call with an
     * in-flight limit, so that a seat whose reply never came (the connection dropped after the store ran the call)
     * can be released all the same, blindly and at most once ({@link Took#unknown}). A call with no in-flight limit
     * holds one only as a lease ({@link Store#lease}) or a lease's give-back: the key's generation it was granted in.
     * 0 for other calls.
     */
    public long leaseId() {
        return leaseId;
    }

    public int keyCount() {
        return keys.length;
    }

    public String key(int i) {
        return keys[i];
    }

    public String[] keys() {
        return keys.clone();
    }

    /** Index of the first pair of key {@code i}; pairs of key i are {@code [firstPair(i), firstPair(i+1))}. */
    public int firstPair(int i) {
        return firstPair[i];
    }

    public int pairCount() {
        return pairs.length;
    }

    public Limit limit(int pair) {
        return pairs[pair].limit();
    }

    /**
     * The weight this pair's count records: the largest {@linkplain #limitWeight(int) limit weight} of the pairs
     * sharing it; 0 when only reporting. What a store adds to the count, and gives back.
     */
    public long countWeight(int pair) {
        return record ? counts.countWeight(pair) : 0;
    }

    /**
     * The weight this pair's limit charges, whatever other limits sharing its count charge; 0 when only reporting.
     * What the limit's own test and figures are about.
     */
    public long limitWeight(int pair) {
        return record ? pairs[pair].weight() : 0;
    }

    /**
     * The most the pair's count may hold with {@link #countWeight(int)} added for the call to pass this pair: its
     * limit, raised by what the count records beyond this limit's own weight, so that the test is the limit's own
     * (count plus limit weight at most the limit). Figures a store computes against it are the limit's own figures
     * plus {@code bound - limit}.
     */
    public long bound(int pair) {
        return pairs[pair].limit().limit() + countWeight(pair) - limitWeight(pair);
    }

    /**
     * The earlier pair of this call whose count this pair shares (same key, same window), or -1 when it holds its
     * own: a store records a shared count once, through that earlier pair, and tells the same sub-bucket or lease
     * for both.
     */
    public int sharesCountWith(int pair) {
        return counts.sharesWith(pair);
    }

    /** The index, among the caller's limits, of the limit this pair counts for. */
    public int limitIndex(int pair) {
        return pairs[pair].limitIndex();
    }

    /**
     * Whether this pair's weight may be given back after the call: always for a seat of an in-flight limit; for a
     * count shared by several limits, only if every one of them gives it back, and then through the first pair
     * holding it (never twice).
     */
    public boolean returnable(int pair) {
        return record && counts.sharesWith(pair) < 0 && (counts.returnable(pair) || pairs[pair].limit().inFlight());
    }

    /** Whether a pair counts calls in progress: an {@linkplain Limit#inFlight() in-flight} limit. */
    public boolean inFlight() {
        for (Pair p : pairs) {
            if (p.limit().inFlight()) {
                return true;
            }
        }
        return false;
    }

    /** Whether any pair's weight may be given back: the store then tells the sub-bucket of each pair. */
    public boolean returnable() {
        for (int p = 0; p < pairs.length; p++) {
            if (returnable(p)) {
                return true;
            }
        }
        return false;
    }

    /** The give-back of these pairs of this call, in that order, each with the weight its count recorded; null when there are none. */
    public StoreCall givingBack(int[] of) {
        // a lease's generation goes with its give-back (a seat's lease id goes with the seats, in what they took)
        Builder b = builder(nowMillis, true).leaseId(inFlight() ? 0 : leaseId);
        for (int p : of) {
            Pair x = pairs[p];
            b.add(x.key(), x.limit(), countWeight(p), x.limitIndex());
        }
        return b.pairs.isEmpty() ? null : b.build();
    }

    /**
     * The pairs that take something when this call is allowed and recorded: one per count (the first pair holding
     * it), in pair order; none for a report. What undoes a call answered without the store ({@link Store#decide}).
     */
    public int[] takingPairs() {
        if (!record) {
            return new int[0];
        }
        int[] of = new int[pairs.length];
        int n = 0;
        for (int p = 0; p < pairs.length; p++) {
            if (counts.sharesWith(p) < 0) {
                of[n++] = p;
            }
        }
        return java.util.Arrays.copyOf(of, n);
    }

    /**
     * This call as a lease of {@code weight} (or what a lease gives back): every pair charging it, and {@code
     * generation} as its lease id, the key's generation the lease was granted in (0 when asking: none yet).
     */
    public StoreCall leasing(long weight, long generation) {
        Builder b = builder(nowMillis, record).maxWait(maxWaitMillis).leaseId(generation);
        for (Pair x : pairs) {
            b.add(x.key(), x.limit(), weight, x.limitIndex(), x.returnable());
        }
        return b.build();
    }

    /** This call with each pair's limit mapped by {@code f} (the same window): the keys, own weights and order kept. */
    public StoreCall withLimits(java.util.function.UnaryOperator<Limit> f) {
        Builder b = builder(nowMillis, record).maxWait(maxWaitMillis).leaseId(leaseId);
        for (Pair x : pairs) {
            b.add(x.key(), f.apply(x.limit()), x.weight(), x.limitIndex(), x.returnable());
        }
        return b.build();
    }

    /**
     * Collects pairs; an exact repeat (same key and limit index) is kept once, and limits of one key that count the
     * same window share one count.
     */
    public static final class Builder {
        private final long nowMillis;
        private final boolean record;
        private final List<Pair> pairs = new ArrayList<>(4);
        private long maxWaitMillis;
        private long leaseId;

        private Builder(long nowMillis, boolean record) {
            this.nowMillis = nowMillis;
            this.record = record;
        }

        /** The longest the call may wait, in milliseconds (0, the default: it never waits). */
        public Builder maxWait(long millis) {
            if (millis < 0) {
                throw new IllegalArgumentException("a wait is never negative: " + millis);
            }
            this.maxWaitMillis = millis;
            return this;
        }

        /**
         * The id of the lease the call's seats hold (a part of a call spanning several slots keeps the whole call's);
         * by default one drawn at random when the call records an in-flight limit.
         */
        public Builder leaseId(long id) {
            this.leaseId = id;
            return this;
        }

        /** Adds a pair: {@code limit} checked for {@code key}, charging {@code weight}, for the caller's limit {@code limitIndex}. */
        public Builder add(String key, Limit limit, long weight, int limitIndex) {
            return add(key, limit, weight, limitIndex, false);
        }

        /** As {@link #add(String, Limit, long, int)}; {@code returnable}: the pair's weight may be given back. */
        public Builder add(String key, Limit limit, long weight, int limitIndex, boolean returnable) {
            for (Pair p : pairs) {
                if (p.key().equals(key) && p.limitIndex() == limitIndex) {
                    return this;
                }
            }
            pairs.add(new Pair(key, limit, weight, limitIndex, returnable));
            return this;
        }

        public StoreCall build() {
            if (pairs.isEmpty()) {
                throw new IllegalStateException("a store call needs at least one limit");
            }
            return new StoreCall(nowMillis, record, maxWaitMillis, leaseId, pairs);
        }
    }
}
