package io.github.throttle;

/**
 * Thrown by a {@link Throttle}d CDI bean method when the call is denied. Reaching JAX-RS, it becomes a
 * {@code 429 Too Many Requests} with the same fields a throttled resource answers.
 */
public class ThrottledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Decision decision;

    /**
     * Creates the exception of a denied call. It has no stack trace; its message names the wait.
     *
     * @param decision the denied decision
     */
    public ThrottledException(Decision decision) {
        super("Rate limit exceeded; retry after " + decision.retryAfterMillis() + " ms", null, false, false);
        this.decision = decision;
    }

    /**
     * The decision that denied the call, with the figures a client needs to pace itself.
     *
     * @return the decision; {@code null} after deserialization (it is not serialized)
     */
    public Decision decision() {
        return decision;
    }
}
