package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;

/**
 * One application's rate limiting, as the adapters use it: its settings, its targets and the decider in
 * front of its store. Per call: target → identities → one store call → decision.
 */
public final class Limiter implements AutoCloseable {

    private final ThrottleSettings settings;
    private final KeyCodec codec;
    private final Decider decider;
    private final Targets targets;
    /** The targets served over HTTP, with the resource class that serves each (for the OpenAPI document). */
    private final Map<Method, Class<?>> httpTargets = new ConcurrentHashMap<>();

    public Limiter(ThrottleSettings settings, KeyCodec codec, Decider decider, Targets targets) {
        this.settings = settings;
        this.codec = codec;
        this.decider = decider;
        this.targets = targets;
    }

    public ThrottleSettings settings() {
        return settings;
    }

    /** The target of a method of a bean class, built (and checked) on first use. */
    public Target target(Class<?> beanClass, Method method) {
        return targets.of(beanClass, method);
    }

    /** Records that {@code resourceClass} serves {@code method} over HTTP, throttled. */
    public void servedOverHttp(Class<?> resourceClass, Method method) {
        httpTargets.put(method, resourceClass);
    }

    /** The methods served over HTTP, throttled, with their resource classes. */
    public Map<Method, Class<?>> httpTargets() {
        return Map.copyOf(httpTargets);
    }

    /** Whether calls are throttled at all ({@code throttle.enabled}) and this target is on. */
    public boolean active(Target target) {
        return settings.enabled() && target.enabled();
    }

    /** Decides one call of a target, and counts what happened to it. */
    public CompletionStage<Verdict> decide(Target target, Caller caller) {
        return decider.decide(target.storeCall(caller, codec, decider.now()), target.limits()).thenApply(d -> {
            CallResult result = CallResult.of(d, target.report());
            target.count(result);
            return new Verdict(d, result, target.report());
        });
    }

    /** Whether the store answers within the timeout, for the readiness check. */
    public CompletionStage<Boolean> storeReachable() {
        return decider.reachable();
    }

    /** What kind of store counts: {@code memory}, {@code redis}, {@code redis-cluster}, {@code redis-sentinel}. */
    public String storeKind() {
        return decider.store().kind();
    }

    /** Whether a store that cannot be asked gets calls denied. */
    public boolean deniesOnStoreFailure() {
        return decider.deniesOnFailure();
    }

    /**
     * Decides a programmatic call: {@code weight} charged to {@code identity} in {@code bucket} against each
     * limit, or (not {@code record}) usage only reported.
     */
    public CompletionStage<Decision> decide(String bucket, String identity, long weight, boolean record, List<Limit> limits) {
        String key = codec.key(codec.bucketHead(bucket), identity);
        StoreCall.Builder call = StoreCall.builder(decider.now(), record);
        for (int i = 0; i < limits.size(); i++) {
            call.add(key, limits.get(i), weight, i);
        }
        return decider.decide(call.build(), limits);
    }

    /** Forgets everything counted for {@code identity} in {@code bucket}. */
    public CompletionStage<Void> reset(String bucket, String identity) {
        return decider.store().reset(codec.key(codec.bucketHead(bucket), identity));
    }

    @Override
    public void close() {
        decider.store().close();
    }
}
