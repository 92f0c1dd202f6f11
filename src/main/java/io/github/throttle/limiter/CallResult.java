package io.github.throttle.limiter;

import io.github.throttle.Decision;

/** What happened to one call, as the {@code result} tag of {@code throttle.calls} names it. */
public enum CallResult {
    /** Counted and let through. */
    ALLOWED("allowed"),
    /** Refused for its limits. */
    DENIED("denied"),
    /** Let through in report mode, where enforce mode would have refused it. */
    WOULD_DENY("would-deny"),
    /** Let through uncounted: the caller is on plan {@code unlimited}. */
    UNLIMITED("unlimited"),
    /** Refused uncounted: the caller is on plan {@code blocked}. */
    BLOCKED("blocked"),
    /** Let through uncounted: the store could not be asked and failures allow. */
    STORE_FAILURE_ALLOWED("store-failure-allowed"),
    /** Refused: the store could not be asked and failures deny. */
    STORE_FAILURE_DENIED("store-failure-denied"),
    /** Let through, counted on this instance alone: the store could not be asked and failures count locally. */
    LOCAL_ALLOWED("local-allowed"),
    /** Refused for the scaled limits counted on this instance: the store could not be asked and failures count locally. */
    LOCAL_DENIED("local-denied");

    private final String tag;

    CallResult(String tag) {
        this.tag = tag;
    }

    /** The value of the {@code result} tag. */
    public String tag() {
        return tag;
    }

    /** The result of a decision, in enforce or report mode. */
    static CallResult of(Decision d, boolean report) {
        if (d.allowed()) {
            return d.isLocal() ? LOCAL_ALLOWED : d.isUnmetered() ? STORE_FAILURE_ALLOWED : ALLOWED;
        }
        if (report) {
            return WOULD_DENY;
        }
        return d.isLocal() ? LOCAL_DENIED : d.isUnmetered() ? STORE_FAILURE_DENIED : DENIED;
    }
}
