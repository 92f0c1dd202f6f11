package io.github.throttle.history;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;

/**
 * The methods a history calls. Every member of every limit is set by the history's configuration
 * ({@code <class>/<method>/Throttle/<index>/<member>}): the annotations only say how many limits each method has.
 */
public class HistoryApi {

    /** The methods: {@code one}, {@code two} and {@code three} limits, and {@code alike}, often one's limit in another precision. */
    static final String[] METHODS = {"one", "two", "three", "alike"};

    @Throttle(limit = 1, duration = 1, key = ThrottleKey.ClientAddress.class)
    public void one() {
    }

    @Throttle(limit = 1, duration = 1, key = ThrottleKey.ClientAddress.class)
    public void alike() {
    }

    @Throttle(limit = 1, duration = 1, key = ThrottleKey.ClientAddress.class)
    @Throttle(limit = 1, duration = 2, key = ThrottleKey.ClientAddress.class)
    public void two() {
    }

    @Throttle(limit = 1, duration = 1, key = ThrottleKey.ClientAddress.class)
    @Throttle(limit = 1, duration = 2, key = ThrottleKey.ClientAddress.class)
    @Throttle(limit = 1, duration = 3, key = ThrottleKey.ClientAddress.class)
    public void three() {
    }
}
