package io.github.throttle;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Changes who pays how much while the application runs, on every instance at once. Inject it
 * ({@code @Inject ThrottleAdmin admin}).
 *
 * <p>Over Redis, assignments are kept in Redis (under {@code throttle.key-prefix}, without expiry: an
 * assignment's end is in its value) and every instance applies a change within a second; new instances start
 * with them, and while the store fails the last known ones stay in force. On the embedded store they are this
 * instance's alone.
 *
 * <p>Identities are written as the {@code throttle.plans.*} lists write them: {@code ip:<address or CIDR>},
 * {@code user:<name>}, {@code key:<value>}. A call's plan: a live assignment first, then the lists, then the
 * {@link ThrottlePlan} bean; when several assignments match a call, {@code blocked} wins, then
 * {@code unlimited}, then plan names in order.
 */
public interface ThrottleAdmin {

    /**
     * An identity's plan, until when.
     *
     * @param plan  the plan, {@code blocked} and {@code unlimited} included
     * @param until when the assignment ends; null when it lasts until it is taken back
     */
    record Assignment(String plan, Instant until) {
    }

    /**
     * Puts an identity on a plan, on every instance.
     *
     * @param identity {@code ip:<address or CIDR>}, {@code user:<name>} or {@code key:<value>}
     * @param plan     {@code blocked}, {@code unlimited} or a plan an annotation names
     * @param duration how long; null until {@link #unassign(String)}
     * @throws IllegalArgumentException naming what is wrong (nothing changes): an identity of another form, an
     *                                  unknown plan, a duration that is not positive
     * @throws IllegalStateException    when the store cannot keep it (nothing changes)
     */
    void assign(String identity, String plan, Duration duration);

    /**
     * Takes an identity's assignment back, on every instance (nothing happens when it has none).
     *
     * @param identity as given to {@link #assign}
     * @throws IllegalStateException when the store cannot be reached
     */
    void unassign(String identity);

    /**
     * The live assignments, by identity, as this instance applies them now.
     *
     * @return identity to assignment
     */
    Map<String, Assignment> assignments();
}
