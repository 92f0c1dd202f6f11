package io.github.throttle.fleet;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleAdmin.Assignment;
import io.github.throttle.config.LoggedIdentity;
import io.github.throttle.config.PlanLists;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Identities put on a plan while the application runs ({@link io.github.throttle.ThrottleAdmin}), kept in the
 * store's shared settings ({@link SharedSettingsWatch}) as one field per identity, {@code plan|end in ms or
 * empty}, so that every instance applies them; a call only reads what is applied in memory. A change read from
 * the store costs what it changes: one assignment added or removed in place. An assignment that ends stops
 * matching at its end, by the clock; calls never change what is applied, so no change read meanwhile is undone.
 */
final class Assignments {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final String keyHeader;
    private final InstantSource clock;
    private final Predicate<String> knownPlan;
    /** Replaced as a whole when every field is read again; else changed in place, one applier at a time. */
    private volatile AssignedIdentities applied;

    /** @param knownPlan whether a plan can be assigned (reserved, or named by an annotation) */
    Assignments(String keyHeader, InstantSource clock, Predicate<String> knownPlan) {
        this.keyHeader = keyHeader;
        this.clock = clock;
        this.knownPlan = knownPlan;
        this.applied = new AssignedIdentities(keyHeader);
    }

    /** Whether a shared setting is an assignment: its field is an identity as the lists write it. */
    static boolean isAssignment(String field) {
        return PlanLists.checkEntry(field).isEmpty();
    }

    /** The plan a live assignment gives the caller, or null. */
    String match(Caller caller) {
        return applied.match(caller, clock.millis());
    }

    /**
     * The change that assigns an identity to a plan.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    SharedChange assign(String identity, String plan, Duration duration) {
        String id = identity == null ? "" : identity.trim();
        PlanLists.checkEntry(id).ifPresent(why -> {
            throw new IllegalArgumentException("identity '" + identity + "': " + why);
        });
        if (plan == null || !knownPlan.test(plan)) {
            throw new IllegalArgumentException("plan '" + plan + "': assign blocked, unlimited or a plan an annotation names");
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new IllegalArgumentException("duration " + duration + ": must be positive, or null for no end");
        }
        Instant until = duration == null ? null : clock.instant().plus(duration);
        String logged = LoggedIdentity.of(id);
        return new SharedChange(id, plan + "|" + (until == null ? "" : Long.toString(until.toEpochMilli())),
                "the assignment of " + logged, logged + " assigned to plan " + plan + (until == null ? "" : " until " + until));
    }

    /**
     * The change that takes an identity's assignment back.
     *
     * @throws IllegalArgumentException when the identity is not one an assignment can have (its field would be
     *                                  another shared setting's)
     */
    SharedChange unassign(String identity) {
        String id = identity == null ? "" : identity.trim();
        PlanLists.checkEntry(id).ifPresent(why -> {
            throw new IllegalArgumentException("identity '" + identity + "': " + why);
        });
        String logged = LoggedIdentity.of(id);
        return new SharedChange(id, null, "the assignment of " + logged, "assignment of " + logged + " taken back");
    }

    /** The live assignments by identity. */
    Map<String, Assignment> live() {
        long now = clock.millis();
        Map<String, Assignment> live = new TreeMap<>();
        applied.all().forEach((id, a) -> {
            if (a.until() == null || a.until().toEpochMilli() > now) {
                live.put(id, a);
            }
        });
        return live;
    }

    /**
     * Applies the assignments among shared settings read from the store: those of every field read, in place of
     * what was applied; or those of the fields written since (a null value: removed). Called by one thread at a time.
     */
    void apply(Map<String, String> fields, boolean every) {
        AssignedIdentities target = every ? new AssignedIdentities(keyHeader) : applied;
        fields.forEach((identity, value) -> {
            if (isAssignment(identity)) {
                target.put(identity, value == null ? null : parse(identity, value));
            }
        });
        applied = target;
    }

    /** An assignment as kept in the store ({@code plan|end in ms or empty}); null (and logged) when unreadable. */
    private Assignment parse(String identity, String value) {
        int bar = value.lastIndexOf('|');
        try {
            String plan = value.substring(0, bar);
            String end = value.substring(bar + 1);
            if (plan.isEmpty()) {
                throw new IllegalArgumentException();
            }
            return new Assignment(plan, end.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(end)));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Throttle: ignored an unreadable assignment of " + LoggedIdentity.of(identity) + ": " + value);
            return null;
        }
    }
}
