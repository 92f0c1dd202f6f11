package io.github.throttle.memory;

import io.github.throttle.engine.Limit;

import java.util.Arrays;

/**
 * Everything one identity (one key) has counted: one {@link WindowCounts} per window, one {@link Seats} per
 * in-flight limit, and when it expires.
 */
final class IdentityCounts {

    private static final Seats[] NO_SEATS = new Seats[0];

    /** The first of its windows, each linking the next (an identity has few). */
    private WindowCounts windows;
    private Seats[] seats = NO_SEATS;
    /** When the last counted weight leaves its window (store time, ms); the sweep evicts the identity then. */
    long expiresAt;

    /** The counts of this limit's window, or null (a key has few windows). */
    WindowCounts find(Limit limit) {
        for (WindowCounts w = windows; w != null; w = w.next) {
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
            // last, as the windows were first counted
            WindowCounts last = windows;
            while (last != null && last.next != null) {
                last = last.next;
            }
            if (last == null) {
                windows = w;
            } else {
                last.next = w;
            }
        }
        return w;
    }

    /** The seats of this in-flight limit, or null. */
    Seats seats(Limit limit) {
        for (Seats s : seats) {
            if (s.window().sameWindow(limit)) {
                return s;
            }
        }
        return null;
    }

    /** The seats of this in-flight limit, added empty when missing. */
    Seats seatsOrAdd(Limit limit) {
        Seats s = seats(limit);
        if (s == null) {
            s = new Seats(limit);
            seats = Arrays.copyOf(seats, seats.length + 1);
            seats[seats.length - 1] = s;
        }
        return s;
    }

    /** Forgets the seats of this in-flight limit (none is held any more). */
    void dropSeats(Limit limit) {
        for (int i = 0; i < seats.length; i++) {
            if (seats[i].window().sameWindow(limit)) {
                Seats[] fewer = new Seats[seats.length - 1];
                System.arraycopy(seats, 0, fewer, 0, i);
                System.arraycopy(seats, i + 1, fewer, i, seats.length - i - 1);
                seats = fewer;
                return;
            }
        }
    }
}
