package io.github.throttle.fleet;

import io.github.throttle.Throttler;

import java.time.Duration;
import java.util.List;

/**
 * The range of every parameter of {@link io.github.throttle.ThrottleAdmin} and of the admin HTTP API. A value
 * outside it is refused with an {@link IllegalArgumentException} whose message starts with the parameter's name,
 * before anything changes: no input overflows the arithmetic of times, nor puts arbitrarily long text in the store
 * and the logs.
 */
public final class AdminBounds {

    /** The longest duration taken (an assignment's, a rate's window or precision): 100 years. */
    public static final Duration LONGEST = Duration.ofDays(36_525);
    /** The longest identity, bucket or plan, in characters. */
    public static final int LONGEST_TEXT = 1_024;
    /** The most rates one override sets: each is a window every call of the bucket counts in. */
    public static final int MOST_RATES = 32;
    /** The most identities a top of denied calls lists. */
    public static final int MOST_DENIED = 10_000;

    private AdminBounds() {
    }

    /**
     * A required text parameter (an identity, a bucket), trimmed.
     *
     * @throws IllegalArgumentException when it is missing, blank or longer than {@link #LONGEST_TEXT}
     */
    public static String required(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + ": required");
        }
        return optional(name, value).trim();
    }

    /**
     * A text parameter that may be left out (a plan), as given.
     *
     * @throws IllegalArgumentException when it is longer than {@link #LONGEST_TEXT}
     */
    public static String optional(String name, String value) {
        if (value != null && value.length() > LONGEST_TEXT) {
            // not echoed: it is long, and may be a key
            throw new IllegalArgumentException(name + ": " + value.length() + " characters; at most " + LONGEST_TEXT);
        }
        return value;
    }

    /**
     * A duration that may be left out (null).
     *
     * @throws IllegalArgumentException when it is longer than {@link #LONGEST}
     */
    public static Duration duration(String name, Duration value) {
        if (longer(value)) {
            throw new IllegalArgumentException(name + ": " + value + " is longer than 100 years");
        }
        return value;
    }

    /**
     * The rates of an override: at most {@link #MOST_RATES}, each window and precision at most {@link #LONGEST}
     * (the other rules of a limit are checked as an annotation's).
     *
     * @throws IllegalArgumentException naming the first that is out of range
     */
    public static List<Throttler.Rate> rates(String name, List<Throttler.Rate> rates) {
        if (rates != null && rates.size() > MOST_RATES) {
            throw new IllegalArgumentException(name + ": " + rates.size() + " rates; at most " + MOST_RATES);
        }
        for (int i = 0; rates != null && i < rates.size(); i++) {
            Throttler.Rate r = rates.get(i);
            if (r != null && (longer(r.window()) || longer(r.precision()))) {
                throw new IllegalArgumentException(name + ": rate " + (i + 1) + " (" + r.window() + " by " + r.precision()
                        + ") counts over more than 100 years");
            }
        }
        return rates;
    }

    /**
     * How many denied identities to list.
     *
     * @throws IllegalArgumentException when it is not from 1 to {@link #MOST_DENIED}
     */
    public static int top(String name, int n) {
        if (n < 1 || n > MOST_DENIED) {
            throw new IllegalArgumentException(name + ": " + n + " must be from 1 to " + MOST_DENIED);
        }
        return n;
    }

    private static boolean longer(Duration d) {
        return d != null && d.compareTo(LONGEST) > 0;
    }
}
