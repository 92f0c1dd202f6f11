package io.github.throttle.fleet;

import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.ThrottleAdmin;
import io.github.throttle.Throttler;
import io.github.throttle.config.LoggedIdentity;
import io.github.throttle.config.PlanLists;
import io.github.throttle.engine.Limit;
import io.github.throttle.limiter.BucketPlan;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Rates;
import io.github.throttle.limiter.Targets;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@link ThrottleAdmin} does, for one application's {@link Limiter}: changes kept in the store's shared
 * settings for every instance (assignments, overrides, resets), each logged with who made it, and what is read
 * of the store without charging anyone (usage, top denied).
 */
public final class Administration {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final Limiter limiter;
    private final String keyHeader;
    private final Targets targets;
    private final Assignments assignments;
    private final DeniedTally denials;
    private final SharedSettingsWatch shared;
    private final String store;
    private final InstantSource clock;

    Administration(Limiter limiter, String keyHeader, Targets targets, Assignments assignments, DeniedTally denials,
                   SharedSettingsWatch shared, String store, InstantSource clock) {
        this.limiter = limiter;
        this.keyHeader = keyHeader;
        this.targets = targets;
        this.assignments = assignments;
        this.denials = denials;
        this.shared = shared;
        this.store = store;
        this.clock = clock;
    }

    /** As {@link ThrottleAdmin#assign}; {@code principal} made the change (logged). */
    public void assign(String identity, String plan, Duration duration, String principal) {
        change(assignments.assign(AdminBounds.required("identity", identity), AdminBounds.optional("plan", plan),
                AdminBounds.duration("duration", duration)), principal);
    }

    /** As {@link ThrottleAdmin#unassign}; {@code principal} made the change (logged). */
    public void unassign(String identity, String principal) {
        change(assignments.unassign(AdminBounds.required("identity", identity)), principal);
    }

    /** As {@link ThrottleAdmin#assignments}. */
    public Map<String, ThrottleAdmin.Assignment> assignments() {
        return assignments.live();
    }

    /** As {@link ThrottleAdmin#buckets}. */
    public List<ThrottleAdmin.BucketLimits> buckets() {
        List<ThrottleAdmin.BucketLimits> all = new ArrayList<>();
        targets.limitsInForce().forEach((key, limits) -> all.add(new ThrottleAdmin.BucketLimits(key.bucket(), key.plan(),
                limits.stream().map(Rates::rate).toList(), targets.overridden(key))));
        return all;
    }

    /**
     * As {@link ThrottleAdmin#override}; {@code principal} made the change (logged).
     *
     * @throws IllegalArgumentException naming what is wrong (nothing changes)
     */
    public void override(String bucket, String plan, List<Throttler.Rate> rates, String principal) {
        BucketPlan key = key(bucket, plan);
        AdminBounds.rates("limits", rates);
        List<Limit> limits = new ArrayList<>();
        for (int i = 0; rates != null && i < rates.size(); i++) {
            Throttler.Rate r = rates.get(i);
            if (r == null || r.window() == null) {
                throw new IllegalArgumentException("rate " + (i + 1) + ": a limit and a window are needed");
            }
            if (r.inFlight()) {
                throw new IllegalArgumentException("rate " + (i + 1) + " (" + r + "): in-flight limits are not overridden");
            }
            try {
                limits.add(Rates.limit(r));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("rate " + (i + 1) + " (" + r.limit() + " per " + r.window() + " by " + r.precision()
                        + "): " + e.getMessage(), e);
            }
        }
        LimitOverrides.check(targets, key, limits);
        change(new SharedChange(LimitOverrides.field(key), LimitOverrides.format(limits), "the override of " + key,
                "limits of " + key + " overridden: " + limits), principal);
    }

    /** As {@link ThrottleAdmin#clearOverride}; {@code principal} made the change (logged). */
    public void clearOverride(String bucket, String plan, String principal) {
        BucketPlan key = key(bucket, plan);
        change(new SharedChange(LimitOverrides.field(key), null, "the override of " + key, "override of " + key + " cleared"), principal);
    }

    /**
     * As {@link ThrottleAdmin#usage}: the limits in force for the plan, rate limits and seats alike, asked of the
     * store with the highest limit there is (the window of a limit does not depend on it), so that {@code used} is
     * what is counted even above a lowered limit.
     *
     * @throws IllegalArgumentException for a bucket or plan no target declares, no identity, or one out of range
     * @throws IllegalStateException    when the store cannot be asked
     */
    public List<ThrottleAdmin.Usage> usage(String bucket, String plan, String given) {
        String identity = AdminBounds.required("identity", given);
        AdminBounds.required("bucket", bucket);
        Map<BucketPlan, List<Limit>> inForce = targets.limitsInForce();
        String p = plan == null ? planOf(identity) : plan(AdminBounds.optional("plan", plan));
        List<Limit> limits = inForce.get(new BucketPlan(bucket, p));
        if (limits == null && plan == null) {
            limits = inForce.get(new BucketPlan(bucket, ""));
        }
        if (limits == null) {
            throw new IllegalArgumentException(inForce.keySet().stream().anyMatch(k -> k.bucket().equals(bucket))
                    ? "plan '" + plan + "': bucket " + bucket + " declares no limits for it"
                    : "bucket '" + bucket + "': no throttled method counts in it");
        }
        List<Limit> windows = windowsOf(limits);
        Decision d = shared.wait(limiter.acquire(bucket, identity, 0, false, windows, 0),
                "read the usage of " + LoggedIdentity.of(identity) + " in " + bucket);
        if (d.isUnmetered() || d.isLocal()) {
            // what this instance counts on its own meanwhile (on-store-failure=local) is not the fleet's usage
            throw new IllegalStateException("the " + store + " could not be asked for the usage of "
                    + LoggedIdentity.of(identity) + " in " + bucket);
        }
        List<ThrottleAdmin.Usage> usage = new ArrayList<>(limits.size());
        for (Limit l : limits) {
            int w = 0;
            while (!windows.get(w).sameWindow(l)) {
                w++;
            }
            // seats: held now, and the wait is until the soonest lease ends; windows: counted, until weight leaves
            Decision.Quota q = d.quotas().get(w);
            long used = windows.get(w).limit() - q.remaining();
            usage.add(new ThrottleAdmin.Usage(l.policy(), l.limit(), used, Math.max(0, l.limit() - used), q.resetMillis()));
        }
        return usage;
    }

    /**
     * Each window (or seats' lease) of these limits once, with the highest limit of its kind: two targets of a
     * bucket may declare different limits of one window, which share its count.
     */
    private static List<Limit> windowsOf(List<Limit> limits) {
        List<Limit> windows = new ArrayList<>();
        for (Limit l : limits) {
            if (windows.stream().noneMatch(l::sameWindow)) {
                windows.add(l.withLimit(l.inFlight() ? Limit.MAX_SEATS : Limit.MAX_LIMIT));
            }
        }
        return windows;
    }

    /** The plan an assignment or a list gives an identity ({@code ""}: none, or a reserved plan: the default limits). */
    private String planOf(String identity) {
        Caller caller = IdentityCaller.of(identity, keyHeader);
        String assigned = assignments.match(caller);
        String p = assigned != null ? assigned : targets.plans().of(caller);
        return p == null || PlanLists.RESERVED.contains(p) ? "" : p;
    }

    /** The key of an override, its bucket and plan in range. */
    private static BucketPlan key(String bucket, String plan) {
        return new BucketPlan(AdminBounds.required("bucket", bucket), plan(AdminBounds.optional("plan", plan)));
    }

    /** A plan as the admin API takes it: {@code ""}, null and {@code default} are the default limits. */
    private static String plan(String plan) {
        return PlanLists.limitsKey(plan);
    }

    /**
     * As {@link ThrottleAdmin#reset}: the counts go, and every instance's deny cache forgets its denials (a change
     * of the shared settings); {@code principal} made the change (logged).
     */
    public void resetEverywhere(String bucket, String given, String principal) {
        AdminBounds.required("bucket", bucket);
        String identity = AdminBounds.required("identity", given);
        String logged = LoggedIdentity.of(identity);
        shared.wait(limiter.reset(bucket, identity), "reset " + logged + " in " + bucket);
        change(new SharedChange("reset", bucket + "|" + identity + "|" + clock.millis(), "the reset of " + logged,
                "counts of " + logged + " in bucket " + bucket + " reset"), principal);
    }

    /**
     * As {@link ThrottleAdmin#resetAll}: every count goes, and every instance's deny cache forgets its denials. It
     * walks the whole keyspace of counts, so it is bounded by {@link ThrottleAdmin#RESET_ALL_BOUND}, not by the
     * store's timeout. One that fails part-way has deleted some counts and not others: every instance still forgets
     * its denials (the mark is written either way), and calling it again finishes it.
     */
    public void resetAll(String principal) {
        SharedChange mark = new SharedChange("reset", "*|*|" + clock.millis(), "the reset of every count", "every count reset");
        try {
            shared.wait(limiter.resetAll(), "reset every count", ThrottleAdmin.RESET_ALL_BOUND);
        } catch (RuntimeException e) {
            try {
                change(mark, principal);
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            throw e;
        }
        change(mark, principal);
    }

    /** As {@link ThrottleAdmin#topDenied}. */
    public List<ThrottleAdmin.Denied> topDenied(String bucket, int n) {
        AdminBounds.required("bucket", bucket);
        AdminBounds.top("n", n);
        try {
            shared.wait(denials.flush(), "keep the denials counted here");
        } catch (IllegalStateException e) {
            // what this instance counted is lost; the others' still count
        }
        return shared.wait(denials.top(bucket, n), "read the denials of bucket " + bucket);
    }

    /** Keeps a change for every instance, applies it here, and logs it. */
    private void change(SharedChange change, String principal) {
        shared.write(change);
        LOG.log(System.Logger.Level.INFO, "Throttle: " + change.done() + " (by " + (principal == null ? "application" : principal) + ")");
    }
}
