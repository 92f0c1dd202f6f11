package io.github.throttle;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 *
 * <p>Every parameter has a range: durations (an assignment's, a rate's window) at most 100 years; identities,
 * buckets and plans at most 1,024 characters; at most 32 rates in an override; {@code n} of {@link #topDenied}
 * from 1 to 10,000. Outside it: an {@link IllegalArgumentException} whose message starts with the parameter's
 * name, and nothing changes.
 */
public interface ThrottleAdmin {

    /**
     * One plan's limits counting in one bucket, as calls are decided now.
     *
     * @param bucket     the bucket
     * @param plan       the plan; {@code ""} for the default limits
     * @param limits     the limits in force (an override's, else configuration's, else the annotation's)
     * @param overridden whether an override is in force
     */
    record BucketLimits(String bucket, String plan, List<Throttler.Rate> limits, boolean overridden) {
    }

    /**
     * What an identity has used of one limit now. For an in-flight limit: the seats held by its calls in progress,
     * and when the soonest of their leases ends.
     *
     * @param policy      the limit's policy name, as in the {@code RateLimit-Policy} field
     * @param limit       the limit
     * @param used        the weight counted in the window now (may exceed a lowered limit); for an in-flight limit,
     *                    the weight of the seats held now
     * @param remaining   what may still be charged now, never below 0
     * @param resetMillis when the window frees weight next, in milliseconds from now; for an in-flight limit, when
     *                    the soonest lease held ends (0: none is held)
     */
    record Usage(String policy, long limit, long used, long remaining, long resetMillis) {
    }

    /**
     * An identity denied in a bucket over the last minute, summed over every instance.
     *
     * @param identity as the lists write it
     * @param denied   denied (and {@code would-deny}) calls
     */
    record Denied(String identity, long denied) {
    }

    /**
     * Every bucket the application declares, per plan, with the limits in force.
     *
     * @return one entry per bucket and plan
     */
    List<BucketLimits> buckets();

    /**
     * Replaces a plan's rate limits in a bucket, on every target counting in it and on every instance, until
     * {@link #clearOverride}. What was used is kept for windows already counted.
     *
     * @param bucket a bucket an annotation declares
     * @param plan   a plan an annotation of that bucket declares; {@code ""} or null for the default limits
     * @param limits the new rate limits (not in flight), at least one, validated as an annotation's
     * @throws IllegalArgumentException naming what is wrong (nothing changes)
     * @throws IllegalStateException    when the store cannot keep it (nothing changes)
     */
    void override(String bucket, String plan, List<Throttler.Rate> limits);

    /**
     * Takes an override back: the configured limits apply again, on every instance.
     *
     * @param bucket as given to {@link #override}
     * @param plan   as given to {@link #override}
     * @throws IllegalStateException when the store cannot be reached
     */
    void clearOverride(String bucket, String plan);

    /**
     * What an identity has used of each limit of a plan in a bucket now; charges nothing.
     *
     * @param bucket   a bucket an annotation declares
     * @param plan     the plan; null for the plan an assignment or list gives the identity, else the default
     * @param identity as the lists write it
     * @return one entry per limit of that plan
     * @throws IllegalArgumentException naming what is wrong
     */
    List<Usage> usage(String bucket, String plan, String identity);

    /**
     * Forgets everything counted for an identity in a bucket, as {@link Throttler#reset}; every instance's
     * deny cache forgets its denials too.
     *
     * @param bucket   the bucket
     * @param identity as the lists write it
     */
    void reset(String bucket, String identity);

    /**
     * Forgets every count of every bucket and identity — the embedded store at once; Redis: every key of counts
     * under {@code throttle.key-prefix} — and every instance's deny cache forgets its denials. Assignments and
     * overrides stay. Made for tests that share one application ({@code @AfterEach}); over Redis it scans the
     * prefix's keys, so the Redis user also needs {@code +scan}.
     */
    void resetAll();

    /**
     * The longest {@link #resetAll()} waits for the store: it walks every key of counts, which on a large Redis takes
     * longer than one decision's timeout. A reset not done by then fails, having deleted some counts and not others
     * (calling it again finishes it); every instance's deny cache still forgets its denials.
     */
    java.time.Duration RESET_ALL_BOUND = java.time.Duration.ofSeconds(60);

    /**
     * The identities with the most denied calls in a bucket over the last minute, over every instance.
     *
     * @param bucket the bucket
     * @param n      how many at most; from 1 to 10,000
     * @return most denied first
     */
    List<Denied> topDenied(String bucket, int n);

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
     * @throws IllegalArgumentException for an identity of another form (nothing changes)
     * @throws IllegalStateException    when the store cannot be reached
     */
    void unassign(String identity);

    /**
     * The live assignments, by identity, as this instance applies them now.
     *
     * @return identity to assignment
     */
    Map<String, Assignment> assignments();
}
