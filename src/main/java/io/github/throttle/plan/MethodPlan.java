package io.github.throttle.plan;

import io.github.throttle.Caller;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;

import java.lang.reflect.Method;

/**
 * Everything needed to throttle one method, resolved once from its annotations and configuration: the
 * limits in declaration order, their weights, buckets and identity resolvers.
 */
public final class MethodPlan {

    private final Method method;
    private final String target;
    private final boolean enabled;
    private final boolean httpEndpoint;
    private final Limit[] quotas;
    private final long[] weights;
    private final String[] bucketHeads;
    private final Identity[][] identities;
    /** Whether every limit counts one bucket by the same one resolver or by the default identity (the usual method). */
    private final boolean oneKey;
    /** That resolver; null for the default identity. */
    private final Identity sole;

    MethodPlan(Method method, String target, boolean enabled, boolean httpEndpoint, Limit[] quotas, long[] weights,
               String[] bucketHeads, Identity[][] identities) {
        this.method = method;
        this.target = target;
        this.enabled = enabled;
        this.httpEndpoint = httpEndpoint;
        this.quotas = quotas;
        this.weights = weights;
        this.bucketHeads = bucketHeads;
        this.identities = identities;
        this.oneKey = oneKey(bucketHeads, identities);
        this.sole = oneKey && identities[0].length == 1 ? identities[0][0] : null;
    }

    private static boolean oneKey(String[] bucketHeads, Identity[][] identities) {
        if (identities.length == 0 || identities[0].length > 1) {
            return false;
        }
        for (int q = 1; q < identities.length; q++) {
            // a plan shares one array per identity set and one string per bucket
            if (identities[q] != identities[0] || bucketHeads[q] != bucketHeads[0]) {
                return false;
            }
        }
        return true;
    }

    public Method method() {
        return method;
    }

    /** {@code Class#method}, for messages. */
    public String target() {
        return target;
    }

    /** False when switched off by {@code .../Throttle/enabled=false} or when the method has no limit. */
    public boolean enabled() {
        return enabled;
    }

    /** Whether this is a JAX-RS resource method: the HTTP filter decides it, not the CDI interceptor. */
    public boolean httpEndpoint() {
        return httpEndpoint;
    }

    public Limit[] quotas() {
        return quotas;
    }

    public long weight(int quota) {
        return weights[quota];
    }

    /** The store call for one invocation: each limit for each identity of the caller. */
    public StoreCall call(Caller caller, KeyCodec codec, long now) {
        if (oneKey) {
            // one key for every limit, and the plan's checks keep their windows distinct: no grouping to do
            String id = sole == null ? null : sole.resolve(caller);
            return StoreCall.of(codec.key(bucketHeads[0], id != null ? id : Identity.fallback(caller)), quotas, weights,
                    now, true);
        }
        StoreCall.Builder b = StoreCall.builder(now, true);
        String fallback = null;
        Identity[] lastSet = null;
        String[] lastIds = null;
        String lastHead = null;
        String lastId = null;
        String lastKey = null;
        for (int q = 0; q < quotas.length; q++) {
            Identity[] set = identities[q];
            String[] ids;
            if (set == lastSet) {
                ids = lastIds;
            } else {
                ids = new String[Math.max(1, set.length)];
                for (int i = 0; i < set.length; i++) {
                    ids[i] = set[i].resolve(caller);
                }
                for (int i = 0; i < ids.length; i++) {
                    if (ids[i] == null) {
                        // never a shared empty bucket: charge the caller's default identity instead
                        if (fallback == null) {
                            fallback = Identity.fallback(caller);
                        }
                        ids[i] = fallback;
                    }
                }
                lastSet = set;
                lastIds = ids;
            }
            for (String id : ids) {
                // the limits of one method usually share one bucket and identity: one key string for all
                String key = ids.length == 1 && id == lastId && bucketHeads[q] == lastHead ? lastKey : codec.key(bucketHeads[q], id);
                if (ids.length == 1) {
                    lastHead = bucketHeads[q];
                    lastId = id;
                    lastKey = key;
                }
                b.add(key, quotas[q], weights[q], q);
            }
        }
        return b.build();
    }

    @Override
    public String toString() {
        return target + (enabled ? java.util.Arrays.toString(quotas) : " (disabled)");
    }
}
