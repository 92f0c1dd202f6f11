package io.github.throttle;

import jakarta.enterprise.context.RequestScoped;

import java.util.Optional;

/**
 * The decision of the throttled call being served, for the method that serves it: inject it
 * ({@code @Inject CallDecision call}) to show the remaining quota or the caller's plan in a response body. Over
 * HTTP the decision is also the request property {@value #PROPERTY}.
 */
@RequestScoped
public class CallDecision {

    /** The request property holding the {@link Decision} of an allowed throttled call. */
    public static final String PROPERTY = "io.github.throttle.decision";

    private Decision decision;

    /**
     * The decision of this request's throttled call.
     *
     * @return the decision; empty when the request made no throttled call (or the call was refused)
     */
    public Optional<Decision> get() {
        return Optional.ofNullable(decision);
    }

    /**
     * Records the decision of this request's throttled call; Throttle calls it before the method runs.
     *
     * @param decision the decision of the allowed call
     */
    public void set(Decision decision) {
        this.decision = decision;
    }
}
