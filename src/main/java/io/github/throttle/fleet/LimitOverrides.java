package io.github.throttle.fleet;

import io.github.throttle.config.LimitConfig;
import io.github.throttle.config.TargetConfig;
import io.github.throttle.engine.Limit;
import io.github.throttle.limiter.BucketPlan;
import io.github.throttle.limiter.Targets;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rate limits replaced while running ({@link io.github.throttle.ThrottleAdmin#override}), by bucket and plan,
 * as kept in the shared settings: field {@code limits|<plan>|<bucket>} (the plan empty for the default limits),
 * value {@code <limit>/<window ms>/<precision ms>} per limit, comma-separated. No identity starts that way, so
 * these fields never read as assignments. What is read is handed to the targets, only when an override changed.
 */
final class LimitOverrides {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");
    private static final String FIELD = "limits|";

    private final Targets targets;
    /** The overrides applied; changed by one thread at a time. */
    private Map<BucketPlan, List<Limit>> applied = Map.of();

    LimitOverrides(Targets targets) {
        this.targets = targets;
    }

    /** The field of the override of {@code key}. */
    static String field(BucketPlan key) {
        return FIELD + key.plan() + "|" + key.bucket();
    }

    /** Whether a shared setting is an override. */
    static boolean isOverride(String field) {
        return field.startsWith(FIELD);
    }

    /** The value kept for these limits: their figures only (the policy names come from the targets). */
    static String format(List<Limit> limits) {
        StringBuilder b = new StringBuilder();
        for (Limit l : limits) {
            b.append(b.isEmpty() ? "" : ",").append(l.limit()).append('/').append(l.durationMillis()).append('/').append(l.precisionMillis());
        }
        return b.toString();
    }

    /**
     * Why these rate limits cannot replace those of {@code key} on {@code targets}: a bucket or plan no target declares (rate limits
     * of), no limit, an in-flight one, one that breaks a rule of {@link Limit#check}, two counting the same
     * window, or a limit below the weight of a call a target charges there.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static void check(Targets targets, BucketPlan key, List<Limit> limits) {
        List<LimitConfig> replaced = new ArrayList<>();
        boolean bucketKnown = false;
        for (TargetConfig t : targets.configs()) {
            for (LimitConfig c : t.limits()) {
                bucketKnown |= c.bucket().equals(key.bucket());
                if (c.bucket().equals(key.bucket()) && c.plan().equals(key.plan()) && !c.inFlight()) {
                    replaced.add(c);
                }
            }
        }
        if (!bucketKnown) {
            throw new IllegalArgumentException("bucket '" + key.bucket() + "': no throttled method counts in it");
        }
        if (replaced.isEmpty()) {
            throw new IllegalArgumentException("plan '" + key.plan() + "': no rate limit of bucket " + key.bucket()
                    + (key.plan().isEmpty() ? " is a default limit" : " is declared for it"));
        }
        if (limits.isEmpty()) {
            throw new IllegalArgumentException("limits: at least one rate is needed (clear the override to go back to the configured limits)");
        }
        for (int i = 0; i < limits.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (limits.get(j).sameWindow(limits.get(i))) {
                    throw new IllegalArgumentException("rates " + (j + 1) + " and " + (i + 1) + " count the same window ("
                            + limits.get(i) + "); give one a different window or precision");
                }
            }
            for (LimitConfig c : replaced) {
                int rate = i + 1;
                limits.get(i).checkWeight(c.weight()).ifPresent(broken -> {
                    throw new IllegalArgumentException("rate " + rate + " (" + limits.get(rate - 1) + "): limit " + limits.get(rate - 1).limit()
                            + " is below the weight " + c.weight() + " that " + c.where() + " charges: such a call could never pass");
                });
            }
        }
    }

    /**
     * Applies the overrides among shared settings read from the store: those of every field read, in place of what
     * was applied; or those of the fields written since (a null value: cleared). One that cannot be read is left
     * out (and logged). Called by one thread at a time.
     */
    void apply(Map<String, String> fields, boolean every) {
        // most changes are assignments: the overrides are copied only when one of them changed
        Map<BucketPlan, List<Limit>> now = every ? new HashMap<>() : null;
        for (Map.Entry<String, String> f : fields.entrySet()) {
            if (isOverride(f.getKey())) {
                now = now != null ? now : new HashMap<>(applied);
                read(f.getKey(), f.getValue(), now);
            }
        }
        if (now != null) {
            applied = Map.copyOf(now);
            targets.override(applied);
        }
    }

    private static void read(String field, String value, Map<BucketPlan, List<Limit>> into) {
        try {
            int bar = field.indexOf('|', FIELD.length());
            BucketPlan key = new BucketPlan(field.substring(bar + 1), field.substring(FIELD.length(), bar));
            into.remove(key);
            if (value == null) {
                return;
            }
            List<Limit> limits = new ArrayList<>();
            for (String l : value.split(",")) {
                String[] figures = l.split("/");
                limits.add(Limit.of(Long.parseLong(figures[0]), Long.parseLong(figures[1]), Long.parseLong(figures[2])));
            }
            into.put(key, List.copyOf(limits));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Throttle: ignored an unreadable override " + field + ": " + value);
        }
    }
}
