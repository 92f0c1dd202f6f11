package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.metrics.Meters;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

/**
 * A throttled method, resolved once from its configuration: its default limits and the limits of each plan it
 * names, the resolvers that tell who is charged and the weighers that tell how much.
 */
public final class Target {

    private final Method method;
    private final String name;
    private final boolean enabled;
    private final boolean httpEndpoint;
    private final boolean report;
    private final String bucket;
    private final ReportLog reportLog;
    private final LimitSet defaults;
    private final Map<String, LimitSet> byPlan;
    /** How calls on the reserved plans are counted: {@code unlimited}, then {@code blocked}. */
    private final Map<CallResult, Meters.Counter> unlimitedCalls;
    private final Map<CallResult, Meters.Counter> blockedCalls;
    /** The resolvers of all limits, each once. */
    private final List<TaggedResolver> resolvers;
    private final List<ThrottleWeight> weighers;
    private final boolean chargesDefaultIdentity;
    private final boolean givesBack;

    Target(Method method, String name, boolean enabled, boolean httpEndpoint, boolean report, String bucket,
           ReportLog reportLog, LimitSet defaults, Map<String, LimitSet> byPlan, Map<CallResult, Meters.Counter> unlimitedCalls,
           Map<CallResult, Meters.Counter> blockedCalls, List<TaggedResolver> resolvers, List<ThrottleWeight> weighers) {
        this.method = method;
        this.name = name;
        this.enabled = enabled;
        this.httpEndpoint = httpEndpoint;
        this.report = report;
        this.bucket = bucket;
        this.reportLog = reportLog;
        this.defaults = defaults;
        this.byPlan = Map.copyOf(byPlan);
        this.unlimitedCalls = unlimitedCalls;
        this.blockedCalls = blockedCalls;
        this.resolvers = resolvers;
        this.weighers = weighers;
        this.chargesDefaultIdentity = defaults.chargesDefaultIdentity()
                || byPlan.values().stream().anyMatch(LimitSet::chargesDefaultIdentity);
        this.givesBack = defaults.givesBack() || byPlan.values().stream().anyMatch(LimitSet::givesBack);
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

    /** The default limits, in declaration order (those of calls on no plan). */
    public List<io.github.throttle.engine.Limit> limits() {
        return defaults.limits();
    }

    /** The limits that apply to a call on {@code plan} (null: none): the plan's own, else the defaults. */
    LimitSet limitsOn(String plan) {
        LimitSet s = plan == null ? null : byPlan.get(plan);
        return s != null ? s : defaults;
    }

    /** Every limit set: the defaults, then the plans'. */
    List<LimitSet> limitSets() {
        java.util.ArrayList<LimitSet> all = new java.util.ArrayList<>(byPlan.size() + 1);
        all.add(defaults);
        all.addAll(byPlan.values());
        return all;
    }

    List<ThrottleWeight> weighers() {
        return weighers;
    }

    /** Counts one call's result on {@code limits}, and logs (at most once a minute) what report mode let through. */
    void count(LimitSet limits, CallResult result) {
        switch (result) {
            case UNLIMITED -> unlimitedCalls.get(result).increment();
            case BLOCKED -> blockedCalls.get(result).increment();
            default -> limits.count(result);
        }
        if (result == CallResult.WOULD_DENY) {
            reportLog.wouldDeny();
        }
    }

    /** Counts a call on plan {@code blocked} that report mode let through. */
    void countBlockedInReport() {
        blockedCalls.get(CallResult.WOULD_DENY).increment();
        reportLog.wouldDeny();
    }

    /**
     * Who is charged for a call: the identity of each resolver, in {@link #resolvers} order, then the caller's
     * default identity (null when no limit is charged to it). A resolver that cannot tell is replaced by the
     * default identity, never by a shared one.
     */
    String[] identify(Caller caller) {
        int n = resolvers.size();
        String[] identities = new String[n + 1];
        for (int r = 0; r < n; r++) {
            identities[r] = resolvers.get(r).identify(caller);
            if (identities[r] == null) {
                identities[n] = identities[n] != null ? identities[n] : TaggedResolver.defaultIdentity(caller);
                identities[r] = identities[n];
            }
        }
        if (identities[n] == null && chargesDefaultIdentity) {
            identities[n] = TaggedResolver.defaultIdentity(caller);
        }
        return identities;
    }

    @Override
    public String toString() {
        return name + (enabled ? limitSets().toString() : " (disabled)");
    }
}
