package io.github.throttle.limiter;

import io.github.throttle.engine.Limit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rate limits replaced while running ({@link io.github.throttle.ThrottleAdmin#override}), by bucket and plan,
 * as kept in the shared settings: field {@code limits|<plan>|<bucket>} (the plan empty for the default limits),
 * value {@code <limit>/<window ms>/<precision ms>} per limit, comma-separated. No identity starts that way, so
 * these fields never read as assignments.
 */
final class Overrides {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");
    private static final String FIELD = "limits|";

    /** The rate limits of one plan ({@code ""}: the default limits) counting in one bucket. */
    record Key(String bucket, String plan) {

        String field() {
            return FIELD + plan + "|" + bucket;
        }

        @Override
        public String toString() {
            return "bucket " + bucket + ", " + (plan.isEmpty() ? "default limits" : "plan " + plan);
        }
    }

    private Overrides() {
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

    /** The overrides among the shared settings; one that cannot be read is left out (and logged). */
    static Map<Key, List<Limit>> read(Map<String, String> fields) {
        Map<Key, List<Limit>> all = new HashMap<>();
        fields.forEach((field, value) -> {
            if (!isOverride(field)) {
                return;
            }
            int bar = field.indexOf('|', FIELD.length());
            try {
                List<Limit> limits = new ArrayList<>();
                for (String l : value.split(",")) {
                    String[] figures = l.split("/");
                    limits.add(Limit.of(Long.parseLong(figures[0]), Long.parseLong(figures[1]), Long.parseLong(figures[2])));
                }
                all.put(new Key(field.substring(bar + 1), field.substring(FIELD.length(), bar)), List.copyOf(limits));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "Throttle: ignored an unreadable override " + field + ": " + value);
            }
        });
        return Map.copyOf(all);
    }
}
