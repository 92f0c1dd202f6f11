package io.github.throttle.memory;

import io.github.throttle.engine.Limit;

import java.util.Arrays;

/** Everything one identity (one key) has counted: one {@link WindowCounts} per window, and when it expires. */
final class IdentityCounts {

    private static final WindowCounts[] NONE = new WindowCounts[0];

    private WindowCounts[] windows = NONE;
    /** When the last counted weight leaves its window (store time, ms); the sweep evicts the identity then. */
    long expiresAt;

    /** The counts of this limit's window, or null (a key has few windows). */
    WindowCounts find(Limit limit) {
        for (WindowCounts w : windows) {
            if (w.window().sameWindow(limit)) {
                return w;
            }
        }
        return null;
    }

    /** The counts of this limit's window, added empty when missing. */
    WindowCounts findOrAdd(Limit limit) {
        WindowCounts w = find(limit);
        if (w == null) {
            w = new WindowCounts(limit);
            windows = Arrays.copyOf(windows, windows.length + 1);
            windows[windows.length - 1] = w;
        }
        return w;
    }
}
