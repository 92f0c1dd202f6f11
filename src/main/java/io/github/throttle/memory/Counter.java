package io.github.throttle.memory;

import io.github.throttle.engine.Limit;

/**
 * One counter of an identity: a rate window's counts or an in-flight limit's seats. An identity has few; each links
 * the next, so that an identity holds no array of them.
 */
abstract sealed class Counter permits WindowCounts, Seats {

    /** The window (or lease) counted: only its kind, duration and precision matter ({@link Limit#sameWindow}). */
    private final Limit window;
    /** The identity's next counter, or null. */
    Counter next;

    Counter(Limit window) {
        this.window = window;
    }

    final Limit window() {
        return window;
    }
}
