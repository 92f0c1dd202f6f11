package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleAdmin.Assignment;
import io.github.throttle.config.LoggedIdentity;
import io.github.throttle.config.PlanLists;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * Identities put on a plan while the application runs ({@link io.github.throttle.ThrottleAdmin}), kept in the
 * store's shared settings ({@link SharedSettingsWatch}) as one field per identity, {@code plan|end in ms or
 * empty}, so that every instance applies them; a call only reads the snapshot in memory. An assignment that
 * ends stops matching at its end, by the clock: the first call after it rebuilds the snapshot, and only in
 * place of the snapshot it rebuilt from, so that a change read from the store meanwhile is never undone.
 */
final class Assignments {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    /** What this instance applies: every assignment read, those live as lists, and when the next one ends. */
    private record Snapshot(Map<String, Assignment> all, PlanLists live, long nextEnd) {
    }

    private final String keyHeader;
    private final InstantSource clock;
    private final Predicate<String> knownPlan;
    private final AtomicReference<Snapshot> snapshot;

    /** @param knownPlan whether a plan can be assigned (reserved, or named by an annotation) */
    Assignments(String keyHeader, InstantSource clock, Predicate<String> knownPlan) {
        this.keyHeader = keyHeader;
        this.clock = clock;
        this.knownPlan = knownPlan;
        this.snapshot = new AtomicReference<>(snapshot(Map.of()));
    }

    /** Whether a shared setting is an assignment: its field is an identity as the lists write it. */
    static boolean isAssignment(String field) {
        return PlanLists.checkEntry(field).isEmpty();
    }

    /** The plan a live assignment gives the caller, or null. */
    String match(Caller caller) {
        Snapshot s = snapshot.get();
        while (clock.millis() >= s.nextEnd()) {
            // in place of the one it was rebuilt from only: settings read from the store meanwhile win, and are looked at again
            Snapshot rebuilt = snapshot(s.all());
            s = snapshot.compareAndSet(s, rebuilt) ? rebuilt : snapshot.get();
        }
        return s.live().match(caller);
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
        snapshot.get().all().forEach((id, a) -> {
            if (a.until() == null || a.until().toEpochMilli() > now) {
                live.put(id, a);
            }
        });
        return live;
    }

    /** Applies the assignments among the shared settings. */
    void read(Map<String, String> fields) {
        Map<String, Assignment> all = new HashMap<>();
        fields.forEach((identity, value) -> {
            if (isAssignment(identity)) {
                Assignment a = parse(identity, value);
                if (a != null) {
                    all.put(identity, a);
                }
            }
        });
        snapshot.set(snapshot(Map.copyOf(all)));
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

    /** The lists of the assignments live now, and when the first of them ends. */
    private Snapshot snapshot(Map<String, Assignment> all) {
        long now = clock.millis();
        long nextEnd = Long.MAX_VALUE;
        Map<String, List<String>> byPlan = new HashMap<>();
        for (Map.Entry<String, Assignment> e : all.entrySet()) {
            Instant until = e.getValue().until();
            if (until != null && until.toEpochMilli() <= now) {
                continue;
            }
            if (until != null) {
                nextEnd = Math.min(nextEnd, until.toEpochMilli());
            }
            byPlan.computeIfAbsent(e.getValue().plan(), p -> new ArrayList<>()).add(e.getKey());
        }
        return new Snapshot(all, PlanLists.of(byPlan, keyHeader), nextEnd);
    }
}
