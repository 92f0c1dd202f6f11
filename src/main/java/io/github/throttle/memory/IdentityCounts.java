package io.github.throttle.memory;

import io.github.throttle.engine.Limit;

import java.util.function.Function;

/**
 * Everything one identity (one key) has counted: one {@link WindowCounts} per window, one {@link Seats} per
 * in-flight limit, linked one to the next in the order first counted, and when it expires.
 */
final class IdentityCounts {

    /** The first counter, or null. */
    private Counter counters;
    /** When the last counted weight leaves its window (store time, ms); the sweep evicts the identity then. */
    long expiresAt;

    /** The counter of this limit's window (a window's counts, or seats: {@link Limit#sameWindow} tells them apart), or null. */
    private Counter counter(Limit limit) {
        for (Counter c = counters; c != null; c = c.next) {
            if (c.window().sameWindow(limit)) {
                return c;
            }
        }
        return null;
    }

    /** The counter of this limit's window, added last, made by {@code make}, when missing. */
    private Counter counterOrAdd(Limit limit, Function<Limit, Counter> make) {
        Counter c = counter(limit);
        if (c == null) {
            c = make.apply(limit);
            if (counters == null) {
                counters = c;
            } else {
                Counter last = counters;
                while (last.next != null) {
                    last = last.next;
                }
                last.next = c;
            }
        }
        return c;
    }

    /** The counts of this limit's window, or null. */
    WindowCounts find(Limit limit) {
        return (WindowCounts) counter(limit);
    }

    /** The counts of this limit's window, added empty when missing. */
    WindowCounts findOrAdd(Limit limit) {
        return (WindowCounts) counterOrAdd(limit, WindowCounts::new);
    }

    /** The seats of this in-flight limit, or null. */
    Seats seats(Limit limit) {
        return (Seats) counter(limit);
    }

    /** The seats of this in-flight limit, added empty when missing. */
    Seats seatsOrAdd(Limit limit) {
        return (Seats) counterOrAdd(limit, Seats::new);
    }

    /** Forgets the seats of this in-flight limit (none is held any more). */
    void dropSeats(Limit limit) {
        Counter before = null;
        for (Counter c = counters; c != null; before = c, c = c.next) {
            if (c.window().sameWindow(limit)) {
                if (before == null) {
                    counters = c.next;
                } else {
                    before.next = c.next;
                }
                return;
            }
        }
    }
}
