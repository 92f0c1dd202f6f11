package io.github.throttle.memory;

/**
 * Sub-buckets still holding weight, oldest first: a ring of (sub-bucket, weight) pairs that grows by
 * doubling. Made only once a window has closed a sub-bucket, so an identity seen once costs none.
 */
final class SubBucketQueue {

    private long[] pairs = new long[4];
    private int start;
    private int size;

    int size() {
        return size;
    }

    /** The {@code i}-th oldest sub-bucket. */
    long subBucket(int i) {
        return pairs[slot(i) * 2];
    }

    /** The weight of the {@code i}-th oldest sub-bucket. */
    long weight(int i) {
        return pairs[slot(i) * 2 + 1];
    }

    void add(long subBucket, long weight) {
        if (size * 2 == pairs.length) {
            long[] grown = new long[pairs.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i * 2] = subBucket(i);
                grown[i * 2 + 1] = weight(i);
            }
            pairs = grown;
            start = 0;
        }
        int s = slot(size);
        pairs[s * 2] = subBucket;
        pairs[s * 2 + 1] = weight;
        size++;
    }

    /** Forgets the {@code n} oldest. */
    void removeOldest(int n) {
        start = n == size ? 0 : slot(n);
        size -= n;
    }

    void clear() {
        start = 0;
        size = 0;
    }

    private int slot(int i) {
        int capacity = pairs.length / 2;
        int s = start + i;
        return s >= capacity ? s - capacity : s;
    }
}
