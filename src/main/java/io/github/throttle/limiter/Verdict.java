package io.github.throttle.limiter;

import io.github.throttle.Decision;

/**
 * What an adapter does with one call: refuse it (with the decision's 429, 503 or 403, or a 400 when its
 * weight could never pass), or let it through with or without the decision's rate-limit fields.
 *
 * @param decision   the decision, on the plan whose limits applied
 * @param result     what happened, as counted
 * @param report     whether the target is in report mode: nothing refused, no fields sent
 * @param overweight why the call could never pass (a weight above a limit), or null
 */
public record Verdict(Decision decision, CallResult result, boolean report, String overweight) {

    Verdict(Decision decision, CallResult result, boolean report) {
        this(decision, result, report, null);
    }

    /** Whether the call is refused. */
    public boolean refused() {
        return !report && (overweight != null || !decision.allowed());
    }

    /** Whether the response carries the decision's rate-limit fields. */
    public boolean showsFields() {
        return !report && overweight == null && !decision.isUnmetered();
    }
}
