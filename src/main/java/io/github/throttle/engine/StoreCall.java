package io.github.throttle.engine;

import java.util.Arrays;

/**
 * One decision to take in a store: for each key (a bucket and an identity), the limits to check and the
 * weight to charge. Every pair is decided together; the call is allowed only if every pair allows it.
 *
 * <p>Pairs are grouped by key in first-seen order; {@link #quota(int)} tells which declared limit a pair
 * reports to, so that figures can be folded back over identities.
 */
public final class StoreCall {

    private final String[] keys;
    private final int[] firstPair;
    private final Limit[] limits;
    private final long[] weights;
    private final int[] quotas;
    private final long nowMillis;
    private final boolean record;

    private StoreCall(Builder b) {
        this.nowMillis = b.nowMillis;
        this.record = b.record;
        int n = b.size;
        if (oneKey(b)) {
            // the usual call: one identity; the builder's arrays are taken over (it cannot be used again)
            this.keys = b.keys;
            this.firstPair = new int[] {0, n};
            this.limits = b.limits;
            this.weights = b.weights;
            this.quotas = b.quotas;
            this.keyCount = 1;
            this.inQuotaOrder = inOrder(b.quotas, n);
            return;
        }
        // group pairs by key, keeping the order in which keys were first seen
        this.keys = new String[n];
        this.firstPair = new int[n + 1];
        this.limits = new Limit[n];
        this.weights = new long[n];
        this.quotas = new int[n];
        boolean[] taken = new boolean[n];
        int k = 0;
        int p = 0;
        for (int i = 0; i < n; i++) {
            if (taken[i]) {
                continue;
            }
            keys[k] = b.keys[i];
            firstPair[k] = p;
            for (int j = i; j < n; j++) {
                if (!taken[j] && b.keys[j].equals(b.keys[i])) {
                    taken[j] = true;
                    limits[p] = b.limits[j];
                    weights[p] = b.weights[j];
                    quotas[p] = b.quotas[j];
                    p++;
                }
            }
            k++;
        }
        firstPair[k] = p;
        this.keyCount = k;
        this.inQuotaOrder = inOrder(quotas, p);
    }

    private static boolean inOrder(int[] quotas, int n) {
        for (int p = 0; p < n; p++) {
            if (quotas[p] != p) {
                return false;
            }
        }
        return true;
    }

    private final int keyCount;
    private final boolean inQuotaOrder;

    private static boolean oneKey(Builder b) {
        String first = b.keys[0];
        for (int i = 1; i < b.size; i++) {
            if (!first.equals(b.keys[i])) {
                return false;
            }
        }
        return true;
    }

    public static Builder builder(long nowMillis, boolean record) {
        return new Builder(nowMillis, record);
    }

    /**
     * The usual call, built without a {@link Builder}: one key, limit {@code i} reporting to quota {@code i}.
     * The arrays are shared, not copied: the caller never changes them (a method's plan holds them). Limits must
     * count distinct windows ({@link Limit#tag()}), as a plan's limits of one bucket and identity do.
     */
    public static StoreCall of(String key, Limit[] limits, long[] weights, long nowMillis, boolean record) {
        return new StoreCall(key, limits, weights, nowMillis, record);
    }

    private StoreCall(String key, Limit[] limits, long[] weights, long nowMillis, boolean record) {
        int n = limits.length;
        if (n == 0 || weights.length != n) {
            throw new IllegalArgumentException("a store call needs one weight per limit and at least one limit");
        }
        this.nowMillis = nowMillis;
        this.record = record;
        this.keys = new String[] {key};
        this.firstPair = n < SHARED ? FIRST_PAIRS[n] : new int[] {0, n};
        this.limits = limits;
        this.weights = weights;
        this.quotas = n < SHARED ? IN_ORDER : counting(n);
        this.keyCount = 1;
        this.inQuotaOrder = true;
    }

    /** Shared by the calls of up to this many limits: {0, n} and 0, 1, 2, ... (never written). */
    private static final int SHARED = 16;
    private static final int[][] FIRST_PAIRS = new int[SHARED][];
    private static final int[] IN_ORDER = counting(SHARED);

    static {
        for (int n = 0; n < SHARED; n++) {
            FIRST_PAIRS[n] = new int[] {0, n};
        }
    }

    private static int[] counting(int n) {
        int[] q = new int[n];
        for (int i = 0; i < n; i++) {
            q[i] = i;
        }
        return q;
    }

    /** Milliseconds since the epoch given by the caller's clock, or -1 to use the store's clock. */
    public long nowMillis() {
        return nowMillis;
    }

    /** Whether an allowed call is recorded ({@code false}: only report usage). */
    public boolean record() {
        return record;
    }

    public int keyCount() {
        return keyCount;
    }

    public String key(int i) {
        return keys[i];
    }

    /** Index of the first pair of key {@code i}; pairs of key i are {@code [firstPair(i), firstPair(i+1))}. */
    public int firstPair(int i) {
        return firstPair[i];
    }

    public int pairCount() {
        return firstPair[keyCount];
    }

    public Limit limit(int pair) {
        return limits[pair];
    }

    /** Weight charged by this pair; 0 when the call only reports usage. */
    public long weight(int pair) {
        return record ? weights[pair] : 0;
    }

    public int quota(int pair) {
        return quotas[pair];
    }

    /** Whether pair {@code p} reports to quota {@code p} for every pair (each declared limit once, in order). */
    public boolean inQuotaOrder() {
        return inQuotaOrder;
    }

    public String[] keys() {
        return Arrays.copyOf(keys, keyCount);
    }

    /** Collects pairs; an exact repeat (same key and quota) is kept once. */
    public static final class Builder {
        private final long nowMillis;
        private final boolean record;
        private String[] keys = new String[4];
        private Limit[] limits = new Limit[4];
        private long[] weights = new long[4];
        private int[] quotas = new int[4];
        private int size;
        private boolean built;

        private Builder(long nowMillis, boolean record) {
            this.nowMillis = nowMillis;
            this.record = record;
        }

        public Builder add(String key, Limit limit, long weight, int quota) {
            if (built) {
                throw new IllegalStateException("this builder has built its call already");
            }
            for (int i = 0; i < size; i++) {
                if (keys[i] != key && !keys[i].equals(key)) {
                    continue;
                }
                if (quotas[i] == quota) {
                    return this;
                }
                if (limits[i].tag().equals(limit.tag())) {
                    throw new IllegalArgumentException("two limits with the same window " + limit
                            + " in one call for " + key);
                }
            }
            if (size == keys.length) {
                int n = size * 2;
                keys = Arrays.copyOf(keys, n);
                limits = Arrays.copyOf(limits, n);
                weights = Arrays.copyOf(weights, n);
                quotas = Arrays.copyOf(quotas, n);
            }
            keys[size] = key;
            limits[size] = limit;
            weights[size] = weight;
            quotas[size] = quota;
            size++;
            return this;
        }

        public StoreCall build() {
            if (size == 0) {
                throw new IllegalStateException("a store call needs at least one limit");
            }
            if (built) {
                throw new IllegalStateException("this builder has built its call already");
            }
            built = true;
            return new StoreCall(this);
        }
    }
}
