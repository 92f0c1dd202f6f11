package io.github.throttle.limiter;

import io.github.throttle.Decision;

/**
 * What an adapter does with one call: refuse it (with the decision's 429 or 503), or let it through with or
 * without the decision's rate-limit fields.
 *
 * @param decision the store's decision
 * @param result   what happened, as counted
 * @param report   whether the target is in report mode: nothing refused, no fields sent
 */
public record Verdict(Decision decision, CallResult result, boolean report) {

    /** Whether the call is refused. */
    public boolean refused() {
        return !report && !decision.allowed();
    }

    /** Whether the response carries the decision's rate-limit fields. */
    public boolean showsFields() {
        return !report && !decision.isUnmetered();
    }
}
