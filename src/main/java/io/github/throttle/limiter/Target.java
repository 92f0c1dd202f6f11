package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.metrics.Meters;

import java.lang.reflect.Method;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A throttled method, resolved once from its configuration: its limits in declaration order, the weight
 * each charges, the bucket each counts in and the resolvers that tell who is charged.
 */
public final class Target {

    private final Method method;
    private final String name;
    private final boolean enabled;
    private final boolean httpEndpoint;
    private final boolean report;
    private final String bucket;
    private final Map<CallResult, Meters.Counter> calls;
    private final ReportLog reportLog;
    private final List<Limit> limits;
    private final long[] weights;
    private final String[] bucketHeads;
    /** The resolvers of all limits, each once. */
    private final List<TaggedResolver> resolvers;
    /** Per limit, its resolvers as indexes into {@link #resolvers}; none = the caller's default identity. */
    private final int[][] resolversOf;
    /** Whether a limit declares no resolver, so is charged to the caller's default identity. */
    private final boolean chargesDefaultIdentity;

    Target(Method method, String name, boolean enabled, boolean httpEndpoint, boolean report, String bucket,
           Map<CallResult, Meters.Counter> calls, ReportLog reportLog, List<Limit> limits, long[] weights,
           String[] bucketHeads, List<TaggedResolver> resolvers, int[][] resolversOf) {
        this.report = report;
        this.bucket = bucket;
        this.calls = new EnumMap<>(calls);
        this.reportLog = reportLog;
        this.method = method;
        this.name = name;
        this.enabled = enabled;
        this.httpEndpoint = httpEndpoint;
        this.limits = limits;
        this.weights = weights;
        this.bucketHeads = bucketHeads;
        this.resolvers = resolvers;
        this.resolversOf = resolversOf;
        this.chargesDefaultIdentity = java.util.Arrays.stream(resolversOf).anyMatch(of -> of.length == 0);
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

    /** Counts one call's result, and logs (at most once a minute) what report mode let through. */
    void count(CallResult result) {
        calls.get(result).increment();
        if (result == CallResult.WOULD_DENY) {
            reportLog.wouldDeny();
        }
    }

    /** The declared limits, in declaration order. */
    public List<Limit> limits() {
        return limits;
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

    /** The store call of one invocation: each limit for each identity charged. */
    public StoreCall storeCall(Caller caller, KeyCodec codec, long now) {
        String[] identities = identify(caller);
        StoreCall.Builder call = StoreCall.builder(now, true);
        for (int i = 0; i < limits.size(); i++) {
            int[] of = resolversOf[i];
            if (of.length == 0) {
                call.add(codec.key(bucketHeads[i], identities[resolvers.size()]), limits.get(i), weights[i], i);
            }
            for (int r : of) {
                call.add(codec.key(bucketHeads[i], identities[r]), limits.get(i), weights[i], i);
            }
        }
        return call.build();
    }

    @Override
    public String toString() {
        return name + (enabled ? limits.toString() : " (disabled)");
    }
}
