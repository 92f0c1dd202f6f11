package io.github.throttle.engine;

import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;

/**
 * One key, one window, one count: which pairs of a call share a count (pairs of one key counting the same
 * window), the weight that count records (the largest own weight of the pairs sharing it) and whether it may be
 * given back (only if every pair sharing it may).
 */
final class SharedCounts {

    /** Whether two pairs of one key count the same window. */
    @FunctionalInterface
    interface SameWindow {
        boolean test(int p, int q);
    }

    /** Per pair: the earlier pair of the same key and window whose count it shares, or -1; null when none shares. */
    private final int[] sharesWith;
    /** Per pair: the weight its count records. */
    private final long[] weight;
    /** Per pair: whether its count may be given back. */
    private final boolean[] returnable;
    /** When no pair shares a count (the usual call), each pair's own figures are its count's: read from the pair. */
    private final IntToLongFunction limitWeight;
    private final IntPredicate ownReturnable;

    /** @param firstPair pairs of key {@code k} are {@code [firstPair[k], firstPair[k + 1])} */
    SharedCounts(int[] firstPair, int pairs, SameWindow sameWindow, IntToLongFunction limitWeight, IntPredicate ownReturnable) {
        this.limitWeight = limitWeight;
        this.ownReturnable = ownReturnable;
        if (!anyShared(firstPair, sameWindow)) {
            this.sharesWith = null;
            this.weight = null;
            this.returnable = null;
            return;
        }
        this.sharesWith = new int[pairs];
        this.weight = new long[pairs];
        this.returnable = new boolean[pairs];
        for (int k = 0; k + 1 < firstPair.length; k++) {
            for (int p = firstPair[k]; p < firstPair[k + 1]; p++) {
                sharesWith[p] = -1;
                for (int q = firstPair[k]; q < p; q++) {
                    if (sameWindow.test(q, p)) {
                        sharesWith[p] = q;
                        break;
                    }
                }
                int first = sharesWith[p] < 0 ? p : sharesWith[p];
                weight[first] = Math.max(weight[first], limitWeight.applyAsLong(p));
                returnable[first] = (first == p || returnable[first]) && ownReturnable.test(p);
            }
            for (int p = firstPair[k]; p < firstPair[k + 1]; p++) {
                if (sharesWith[p] >= 0) {
                    weight[p] = weight[sharesWith[p]];
                    returnable[p] = returnable[sharesWith[p]];
                }
            }
        }
    }

    /** Whether two pairs of one key count the same window. */
    private static boolean anyShared(int[] firstPair, SameWindow sameWindow) {
        for (int k = 0; k + 1 < firstPair.length; k++) {
            for (int p = firstPair[k]; p < firstPair[k + 1]; p++) {
                for (int q = firstPair[k]; q < p; q++) {
                    if (sameWindow.test(q, p)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    int sharesWith(int pair) {
        return sharesWith == null ? -1 : sharesWith[pair];
    }

    long countWeight(int pair) {
        return weight == null ? limitWeight.applyAsLong(pair) : weight[pair];
    }

    boolean returnable(int pair) {
        return returnable == null ? ownReturnable.test(pair) : returnable[pair];
    }
}
