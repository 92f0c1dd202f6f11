package io.github.throttle.config;

import io.github.throttle.Throttler;
import io.github.throttle.engine.Limit;

import java.time.Duration;

/**
 * A rate written as {@code limit/window[/precision]}, e.g. {@code 100/1m} (a fixed window) or {@code 1000/1h/1m}
 * (an hour counted by minutes), durations as in configuration ({@code 500ms}, {@code 10s}, {@code 1m}, {@code 1h},
 * {@code 1d}). Checked by the rules every limit obeys ({@link Limit#check}).
 */
public final class RateText {

    private RateText() {
    }

    /**
     * Reads a rate.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static Throttler.Rate parse(String text) {
        String[] parts = text == null ? new String[0] : text.trim().split("/", -1);
        if (parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException("'" + text + "' is not limit/window[/precision] (e.g. 100/1m or 1000/1h/1m)");
        }
        long limit;
        try {
            limit = Long.parseLong(parts[0].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "': the limit '" + parts[0] + "' is not a whole number");
        }
        Duration window;
        Duration precision;
        long windowMillis;
        long precisionMillis;
        try {
            window = Durations.parse(parts[1]);
            precision = parts.length == 3 ? Durations.parse(parts[2]) : window;
            windowMillis = window.toMillis();
            precisionMillis = precision.toMillis();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "': a duration is too long");
        }
        Limit.check(limit, windowMillis, precisionMillis).ifPresent(broken -> {
            throw new IllegalArgumentException("'" + text + "': " + (broken.member().equals("duration") ? "window" : broken.member())
                    + " " + broken.why());
        });
        return new Throttler.Rate(limit, window, precision);
    }
}
