package io.github.throttle.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Reads durations written as {@code 500ms}, {@code 2s}, {@code 1m}, {@code 1h}, {@code 1d}, {@code 750} (ms) or
 * ISO-8601 {@code PT0.5S}.
 */
public final class Durations {

    private Durations() {
    }

    /** @throws IllegalArgumentException saying why the text is not a duration, or one too long to hold */
    public static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt") || t.startsWith("p")) {
                return Duration.parse(text.trim());
            }
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2).trim()));
            }
            if (t.endsWith("s")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1).trim()) * 1000));
            }
            if (t.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1).trim()));
            }
            if (t.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1).trim()));
            }
            if (t.endsWith("d")) {
                return Duration.ofDays(Long.parseLong(t.substring(0, t.length() - 1).trim()));
            }
            return Duration.ofMillis(Long.parseLong(t));
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 500ms, 2s, 1m, 1h, 1d, PT0.5S)");
        } catch (ArithmeticException e) {
            // more seconds than a long holds
            throw new IllegalArgumentException("'" + text + "' is too long a duration");
        }
    }
}
