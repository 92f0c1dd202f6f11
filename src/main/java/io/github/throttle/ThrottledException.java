package io.github.throttle;

/**
 * Thrown by a {@link Throttle}d CDI bean method when the call is denied. Reaching JAX-RS, it becomes a
 * {@code 429 Too Many Requests} with the same fields a throttled resource answers.
 */
public class ThrottledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Decision decision;

    public ThrottledException(Decision decision) {
        super("Rate limit exceeded; retry after " + decision.retryAfterMillis() + " ms", null, false, false);
        this.decision = decision;
    }

    public Decision decision() {
        return decision;
    }
}
