package io.github.throttle.fleet;

import io.github.throttle.Caller;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.SharedChanges;
import io.github.throttle.engine.SharedState;
import io.github.throttle.limiter.Fleet;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Targets;

import java.time.InstantSource;

/**
 * The instances sharing one store, as this one takes part: the settings they share (assignments, overrides, the
 * mark of the last reset) read as they change, the denials they count together, and the admin operations that
 * change them ({@link Administration}). Built around a limiter, which knows it as a {@link Fleet} only.
 */
public final class SharedFleet implements Fleet {

    private final Limiter limiter;
    private final Assignments assignments;
    private final LimitOverrides overrides;
    private final DeniedTally denials;
    private final SharedSettingsWatch watch;
    private final Administration admin;

    /**
     * Reads the shared settings once before returning, so that an instance starts with those in force; then
     * watches them, and adds the denials counted here to the store's, on a thread of its own.
     *
     * @param state where the settings and counts are shared (the limiter's store)
     */
    public SharedFleet(Limiter limiter, SharedState state, KeyCodec codec, ThrottleSettings settings, InstantSource clock) {
        Targets targets = limiter.targets();
        this.limiter = limiter;
        this.assignments = new Assignments(settings.keyHeader(), clock, targets.plans()::known);
        this.overrides = new LimitOverrides(targets);
        this.denials = new DeniedTally(state, codec, clock);
        this.watch = new SharedSettingsWatch(state, codec.sharedKey("settings"), settings.redisTimeout(), this::apply);
        watch.every(DeniedTally.FLUSH, denials::flush);
        this.admin = new Administration(limiter, settings.keyHeader(), targets, assignments, denials, watch, state.describe(), clock);
    }

    /**
     * Applies shared settings read from the store, or a change made here: assignments and overrides (each at the
     * cost of what changed), and the deny cache forgets everything, since a change of limits, plan or counts makes
     * its denials uncertain.
     */
    private void apply(SharedChanges changes) {
        assignments.apply(changes.fields(), changes.every());
        overrides.apply(changes.fields(), changes.every());
        limiter.forgetDenials();
    }

    @Override
    public String assignedPlan(Caller caller) {
        return assignments.match(caller);
    }

    @Override
    public void denied(String bucket, String identity) {
        denials.record(bucket, identity);
    }

    /** What {@link io.github.throttle.ThrottleAdmin} does: assignments, overrides, usage, resets and top denied. */
    public Administration admin() {
        return admin;
    }

    /** Reads what changed in the shared settings now, as the watch does twice a second. */
    void poll() {
        watch.poll();
    }

    @Override
    public void close() {
        watch.close();
    }
}
