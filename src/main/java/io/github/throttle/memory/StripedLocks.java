package io.github.throttle.memory;

import io.github.throttle.engine.StoreCall;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A fixed set of monitors, one picked per key by its hash. A call over several keys takes their monitors in
 * index order, so it is atomic and cannot deadlock with another. Monitors (not {@code ReentrantLock}): a
 * holder preempted on a busy machine is waited for by spinning a little before parking.
 */
final class StripedLocks {

    private static final int STRIPES = 256;

    private final Object[] monitors = new Object[STRIPES];

    StripedLocks() {
        for (int i = 0; i < STRIPES; i++) {
            monitors[i] = new Object();
        }
    }

    /** Runs {@code action} holding the monitors of every key of {@code call}. */
    <T> T holding(StoreCall call, Supplier<T> action) {
        int[] stripes = new int[call.keyCount()];
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = stripe(call.key(i));
        }
        Arrays.sort(stripes);
        return holding(stripes, 0, action);
    }

    /** Takes the monitors from {@code stripes[from]} on, in order, each once (two keys may share one). */
    private <T> T holding(int[] stripes, int from, Supplier<T> action) {
        if (from == stripes.length) {
            return action.get();
        }
        if (from > 0 && stripes[from] == stripes[from - 1]) {
            return holding(stripes, from + 1, action);
        }
        synchronized (monitors[stripes[from]]) {
            return holding(stripes, from + 1, action);
        }
    }

    /** The monitor guarding {@code key}. */
    Object of(String key) {
        return monitors[stripe(key)];
    }

    private static int stripe(String key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }
}
