package io.github.throttle.limiter;

import io.github.throttle.Throttler.Rate;
import io.github.throttle.engine.Limit;

import java.time.Duration;

/** {@link Rate}, the public form of a limit, to and from the engine's {@link Limit}. */
public final class Rates {

    private Rates() {
    }

    /**
     * The limit a rate declares, its policy named after its window.
     *
     * @throws IllegalArgumentException naming the member that breaks a rule of {@link Limit}
     */
    public static Limit limit(Rate r) {
        long window = r.window().toMillis();
        if (r.inFlight()) {
            if (r.precision() != null && !r.precision().equals(r.window())) {
                throw new IllegalArgumentException("an in-flight rate has no precision: its window is a lease");
            }
            return Limit.inFlight(r.limit(), window, null);
        }
        return Limit.window(r.limit(), window, r.precision() == null ? window : r.precision().toMillis(), null);
    }

    /** The rate of a limit. */
    public static Rate rate(Limit l) {
        return new Rate(l.limit(), Duration.ofMillis(l.durationMillis()), Duration.ofMillis(l.precisionMillis()), l.inFlight());
    }
}
