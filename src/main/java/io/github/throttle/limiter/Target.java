package io.github.throttle.limiter;

import io.github.throttle.Outcome;
import io.github.throttle.config.LimitConfig;
import io.github.throttle.config.TargetConfig;
import io.github.throttle.engine.Limit;
import io.github.throttle.metrics.Meters;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A throttled method, resolved once from its configuration: its default limits and the limits of each plan it
 * names (each {@link LimitSet} knows how to charge a call), and how calls on the reserved plans are counted.
 */
public final class Target {

    private final java.util.concurrent.atomic.AtomicBoolean waitedOnEventLoop = new java.util.concurrent.atomic.AtomicBoolean();

    private final Method method;
    private final String name;
    private final boolean enabled;
    private final boolean httpEndpoint;
    /** The resource class serving it over HTTP, once the HTTP filter is registered for it (for the OpenAPI document). */
    private volatile Class<?> resourceClass;
    private final boolean report;
    private final String bucket;
    private final ReportLog reportLog;
    private final TargetConfig config;
    /** The limit sets in force: replaced as a whole when an override changes. */
    private volatile Sets sets;
    /** How calls on the reserved plans are counted: {@code unlimited}, then {@code blocked}. */
    private final Map<Outcome, Meters.Counter> unlimitedCalls;
    private final Map<Outcome, Meters.Counter> blockedCalls;
    private final boolean givesBack;
    private final boolean holdsSeats;

    /** The default limits and those of each plan the target names. */
    record Sets(LimitSet defaults, Map<String, LimitSet> byPlan) {
        Sets {
            byPlan = Map.copyOf(byPlan);
        }
    }

    Target(TargetConfig config, Method method, String name, boolean enabled, boolean httpEndpoint, boolean report, String bucket,
           ReportLog reportLog, LimitSet defaults, Map<String, LimitSet> byPlan, Map<Outcome, Meters.Counter> unlimitedCalls,
           Map<Outcome, Meters.Counter> blockedCalls) {
        this.method = method;
        this.name = name;
        this.enabled = enabled;
        this.httpEndpoint = httpEndpoint;
        this.report = report;
        this.bucket = bucket;
        this.reportLog = reportLog;
        this.config = config;
        this.sets = new Sets(defaults, byPlan);
        this.unlimitedCalls = unlimitedCalls;
        this.blockedCalls = blockedCalls;
        this.givesBack = defaults.givesBack() || byPlan.values().stream().anyMatch(LimitSet::givesBack);
        this.holdsSeats = defaults.holdsSeats() || byPlan.values().stream().anyMatch(LimitSet::holdsSeats);
    }

    /**
     * Notes that a call of this target waited for the store on an event loop; true the first time only, so that it
     * is logged once.
     */
    public boolean firstWaitOnEventLoop() {
        return !waitedOnEventLoop.getAndSet(true);
    }

    public Method method() {
        return method;
    }

    /** {@code Class#method}, for messages. */
    public String name() {
        return name;
    }

    /** False when switched off by {@code .../Throttle/enabled=false} or when the method has no limit. */
    public boolean enabled() {
        return enabled;
    }

    /** Whether this is a JAX-RS resource method: the HTTP filter decides it, not the CDI interceptor. */
    public boolean httpEndpoint() {
        return httpEndpoint;
    }

    /** Records that the HTTP filter throttles this target, served by {@code resourceClass}. */
    public void servedBy(Class<?> resourceClass) {
        this.resourceClass = resourceClass;
    }

    /** The resource class that serves this target over HTTP, throttled; null until the HTTP filter is registered. */
    Class<?> resourceClass() {
        return resourceClass;
    }

    /**
     * The application's classes a decision of this target calls, on every plan: its key resolvers and weighers (the
     * HTTP filter runs a target whose callees are marked blocking on a worker thread).
     */
    public Set<Class<?>> callees() {
        Set<Class<?>> callees = new LinkedHashSet<>();
        for (LimitConfig c : config.limits()) {
            callees.addAll(c.key());
            if (c.weighed()) {
                callees.add(c.weigher());
            }
        }
        return callees;
    }

    /** Whether the target is in report mode: nothing refused, what enforce mode would refuse counted. */
    public boolean report() {
        return report;
    }

    /** The bucket the target's metrics are tagged with: that of its first limit. */
    public String bucket() {
        return bucket;
    }

    /** Whether a successful call gives its weight back to some limit ({@code skipSuccessful}). */
    public boolean givesBack() {
        return givesBack;
    }

    /**
     * Whether an allowed call holds seats until it ends (an {@code inFlight} limit, on some plan): the adapters
     * then release them when the call ends.
     */
    public boolean holdsSeats() {
        return holdsSeats;
    }

    /** The default limits in force, in declaration order (those of calls on no plan). */
    public List<Limit> limits() {
        return sets.defaults().limits().limits();
    }

    /** The configuration the target was built from (limits as declared and configured, before any override). */
    TargetConfig config() {
        return config;
    }

    /** The limits that apply to a call on {@code plan} (null: none): the plan's own, else the defaults. */
    LimitSet limitsOn(String plan) {
        Sets now = sets;
        LimitSet s = plan == null ? null : now.byPlan().get(plan);
        return s != null ? s : now.defaults();
    }

    /** Puts other limit sets in force (an override changed); calls decided from now on use them. */
    void limitSets(Sets replaced) {
        sets = replaced;
    }

    /** Every limit set: the defaults, then the plans'. */
    List<LimitSet> limitSets() {
        Sets now = sets;
        ArrayList<LimitSet> all = new ArrayList<>(now.byPlan().size() + 1);
        all.add(now.defaults());
        all.addAll(now.byPlan().values());
        return all;
    }

    /** Counts a call of a caller on plan {@code unlimited}. */
    void countUnlimited() {
        unlimitedCalls.get(Outcome.UNLIMITED).increment();
    }

    /** Counts a call of a caller on plan {@code blocked}: refused, or (report mode) let through and logged. */
    void countBlocked() {
        if (report) {
            blockedCalls.get(Outcome.WOULD_DENY).increment();
            reportLog.wouldDeny();
        } else {
            blockedCalls.get(Outcome.BLOCKED).increment();
        }
    }

    @Override
    public String toString() {
        return name + (enabled ? limitSets().toString() : " (disabled)");
    }
}
