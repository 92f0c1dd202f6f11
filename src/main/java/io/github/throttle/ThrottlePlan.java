package io.github.throttle;

import java.util.Optional;

/**
 * Tells which plan a caller is on, for callers no {@code throttle.plans.<plan>} list names. At most one CDI
 * bean of this type may exist; Throttle asks it once per throttled call, on the request's thread, after the
 * lists: it must answer from what it has at hand (a claim of a token, a cached lookup) and never block.
 *
 * <p>The answer is a plan named in a {@link Throttle#plan()}, or {@code unlimited} (not counted) or
 * {@code blocked} (refused with {@code 403}); empty, or a name no annotation uses, means no plan: the
 * target's default limits apply.
 */
public interface ThrottlePlan {

    /**
     * The plan of the caller.
     *
     * @param caller what is known about the call
     * @return the plan's name, or empty for no plan
     */
    Optional<String> plan(Caller caller);
}
