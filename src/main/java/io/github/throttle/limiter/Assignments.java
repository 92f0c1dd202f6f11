package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleAdmin.Assignment;
import io.github.throttle.config.PlanLists;
import io.github.throttle.engine.Store;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Identities put on a plan while the application runs ({@link io.github.throttle.ThrottleAdmin}), kept in the
 * store under one key so that every instance applies them. This instance asks the store for the version of
 * that key twice a second and reads the assignments again when it changed; a call only reads the snapshot in
 * memory. An assignment that ends stops matching at its end, by the clock; while the store fails, the last
 * snapshot stays in force.
 */
final class Assignments implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");
    /** How often the store is asked for a change. */
    static final Duration POLL = Duration.ofMillis(500);

    /** What this instance applies: every assignment read, those live as lists, and when the next one ends. */
    private record Snapshot(String version, Map<String, Assignment> all, PlanLists live, long nextEnd) {
    }

    private final Store store;
    private final String key;
    private final String keyHeader;
    private final InstantSource clock;
    private final Predicate<String> knownPlan;
    private final Runnable onChange;
    private final Duration timeout;
    private final ScheduledExecutorService poller;
    private volatile Snapshot snapshot;

    /**
     * @param key       the store key holding the assignments
     * @param knownPlan whether a plan can be assigned (reserved, or named by an annotation)
     * @param onChange  run when a change is applied (the deny cache forgets what it knew)
     * @param timeout   bounds each store call of an assignment made here
     */
    Assignments(Store store, String key, String keyHeader, InstantSource clock, Predicate<String> knownPlan,
                Runnable onChange, Duration timeout) {
        this.store = store;
        this.key = key;
        this.keyHeader = keyHeader;
        this.clock = clock;
        this.knownPlan = knownPlan;
        this.onChange = onChange;
        this.timeout = timeout;
        this.snapshot = snapshot("", Map.of());
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "throttle-assignments");
            t.setDaemon(true);
            return t;
        });
        // the first read before any call, so that an instance starts with the assignments in force
        poll();
        poller.scheduleWithFixedDelay(this::poll, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The plan a live assignment gives the caller, or null. */
    String match(Caller caller) {
        Snapshot s = snapshot;
        if (clock.millis() >= s.nextEnd()) {
            s = snapshot(s.version(), s.all());
            snapshot = s;
        }
        return s.live().match(caller);
    }

    void assign(String identity, String plan, Duration duration) {
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
        write(id, plan + "|" + (until == null ? "" : Long.toString(until.toEpochMilli())));
        LOG.log(System.Logger.Level.INFO, "Throttle: " + id + " assigned to plan " + plan + (until == null ? "" : " until " + until));
    }

    void unassign(String identity) {
        String id = identity == null ? "" : identity.trim();
        write(id, null);
        LOG.log(System.Logger.Level.INFO, "Throttle: assignment of " + id + " taken back");
    }

    /** The live assignments by identity. */
    Map<String, Assignment> live() {
        long now = clock.millis();
        Map<String, Assignment> live = new TreeMap<>();
        snapshot.all().forEach((id, a) -> {
            if (a.until() == null || a.until().toEpochMilli() > now) {
                live.put(id, a);
            }
        });
        return live;
    }

    private void write(String identity, String value) {
        try {
            store.writeShared(key, identity, value).toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while keeping the assignment of " + identity, e);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("the " + store.describe() + " could not keep the assignment of " + identity + ": "
                    + store.describe(cause), cause);
        }
        poll();
    }

    /** Reads the assignments again when their version changed; a store that fails leaves the snapshot as it is. */
    private synchronized void poll() {
        try {
            String version = store.sharedVersion(key).toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (version.equals(snapshot.version())) {
                return;
            }
            Map<String, String> fields = store.readShared(key).toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, Assignment> all = new HashMap<>();
            fields.forEach((identity, value) -> {
                if (!identity.equals(Store.VERSION)) {
                    Assignment a = parse(identity, value);
                    if (a != null) {
                        all.put(identity, a);
                    }
                }
            });
            snapshot = snapshot(fields.getOrDefault(Store.VERSION, ""), Map.copyOf(all));
            onChange.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // the store fails: the last known assignments stay in force, and the decisions say so in the log
        }
    }

    /** An assignment as kept in the store ({@code plan|end in ms or empty}); null (and logged) when unreadable. */
    private Assignment parse(String identity, String value) {
        int bar = value.lastIndexOf('|');
        try {
            String plan = value.substring(0, bar);
            String end = value.substring(bar + 1);
            if (PlanLists.checkEntry(identity).isPresent() || plan.isEmpty()) {
                throw new IllegalArgumentException();
            }
            return new Assignment(plan, end.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(end)));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Throttle: ignored an unreadable assignment of " + identity + " in " + key + ": " + value);
            return null;
        }
    }

    /** The lists of the assignments live now, and when the first of them ends. */
    private Snapshot snapshot(String version, Map<String, Assignment> all) {
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
        return new Snapshot(version, all, PlanLists.of(byPlan, keyHeader), nextEnd);
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
