package io.github.throttle.cdi;

import io.github.throttle.Decision;
import io.github.throttle.Throttler;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.plan.Throttling;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.concurrent.CompletionStage;

/** The {@link Throttler} bean. */
@ApplicationScoped
public class ThrottlerBean implements Throttler {

    @Inject
    ThrottleRuntime runtime;

    private final java.util.concurrent.ConcurrentHashMap<Rate, Limit> known = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public Decision acquire(String bucket, String identity, long weight, Rate... rates) {
        return acquireAsync(bucket, identity, weight, rates).toCompletableFuture().join();
    }

    @Override
    public CompletionStage<Decision> acquireAsync(String bucket, String identity, long weight, Rate... rates) {
        return decide(bucket, identity, weight, true, rates);
    }

    @Override
    public Decision count(String bucket, String identity, Rate... rates) {
        return decide(bucket, identity, 0, false, rates).toCompletableFuture().join();
    }

    @Override
    public void reset(String bucket, String identity) {
        Throttling t = runtime.throttling();
        KeyCodec codec = t.codec();
        t.decider().store().reset(codec.key(codec.bucketHead(bucket), identity)).toCompletableFuture().join();
    }

    /** Rates are values: each is checked and turned into a {@link Limit} once. */
    private Limit limits(Rate r) {
        Limit l = known.get(r);
        if (l == null) {
            long w = r.window().toMillis();
            l = new Limit(r.limit(), w, r.precision() == null ? w : r.precision().toMillis(), null);
            if (known.size() < 10_000) {
                known.put(r, l);
            }
        }
        return l;
    }

    private CompletionStage<Decision> decide(String bucket, String identity, long weight, boolean record, Rate... rates) {
        if (rates.length == 0) {
            throw new IllegalArgumentException("at least one rate is needed");
        }
        if (identity == null || identity.isEmpty()) {
            throw new IllegalArgumentException("an identity is needed");
        }
        Throttling t = runtime.throttling();
        Decider decider = t.decider();
        KeyCodec codec = t.codec();
        String key = codec.key(codec.bucketHead(bucket), identity);
        Limit[] limits = new Limit[rates.length];
        StoreCall.Builder b = StoreCall.builder(decider.now(), record);
        for (int i = 0; i < rates.length; i++) {
            Rate r = rates[i];
            limits[i] = limits(r);
            if (record && (weight < 1 || weight > r.limit())) {
                throw new IllegalArgumentException("weight must be between 1 and the limit " + r.limit() + ", was " + weight);
            }
            b.add(key, limits[i], weight, i);
        }
        return decider.decide(b.build(), limits);
    }
}
