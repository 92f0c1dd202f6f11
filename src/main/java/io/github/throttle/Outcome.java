package io.github.throttle;

/**
 * What happened to one call ({@link Decision#outcome()}), as the {@code result} tag of the {@code throttle.calls}
 * metric names it; metrics, logs and HTTP answers are derived from it.
 */
public enum Outcome {
    /** Counted and let through. */
    ALLOWED("allowed", false),
    /** Refused for its limits. */
    DENIED("denied", true),
    /** Refused because its weight is above a limit: it could never pass; counted as {@code denied}. */
    OVERWEIGHT("denied", true),
    /** Let through in report mode, where enforce mode would have refused it. */
    WOULD_DENY("would-deny", false),
    /** Let through uncounted: the caller is on plan {@code unlimited}. */
    UNLIMITED("unlimited", false),
    /** Refused uncounted: the caller is on plan {@code blocked}. */
    BLOCKED("blocked", true),
    /** Let through uncounted: the store could not be asked and failures allow. */
    FAILURE_ALLOWED("store-failure-allowed", false),
    /** Refused: the store could not be asked and failures deny. */
    FAILURE_DENIED("store-failure-denied", true),
    /** Let through, counted on this instance alone: the store could not be asked and failures count locally. */
    LOCAL_ALLOWED("local-allowed", false),
    /** Refused for the scaled limits counted on this instance alone. */
    LOCAL_DENIED("local-denied", true);

    private final String tag;
    private final boolean refused;

    Outcome(String tag, boolean refused) {
        this.tag = tag;
        this.refused = refused;
    }

    /**
     * The value of the {@code result} tag.
     *
     * @return the tag, e.g. {@code store-failure-allowed}
     */
    public String tag() {
        return tag;
    }

    /**
     * Whether the call is refused.
     *
     * @return {@code true} when the call does not proceed
     */
    public boolean refused() {
        return refused;
    }
}
