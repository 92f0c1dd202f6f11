package io.github.throttle.memory;

/**
 * Sub-buckets still holding weight, oldest first: a ring of (sub-bucket, weight) pairs that grows by
 * doubling. Made only once a window has closed a sub-bucket, so an identity seen once costs none.
 */
class SubBucketQueue {

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

    /** The position of sub-bucket {@code b}, or -1 when it holds no weight. */
    int indexOf(long b) {
        for (int i = 0; i < size; i++) {
            if (subBucket(i) == b) {
                return i;
            }
        }
        return -1;
    }

    /** Sets the weight of the {@code i}-th oldest sub-bucket. */
    void setWeight(int i, long weight) {
        pairs[slot(i) * 2 + 1] = weight;
    }

    /** Forgets the {@code i}-th oldest; the newer ones move up. */
    void remove(int i) {
        for (int j = i; j < size - 1; j++) {
            pairs[slot(j) * 2] = subBucket(j + 1);
            pairs[slot(j) * 2 + 1] = weight(j + 1);
        }
        size--;
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
