package io.github.throttle.plan;

import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.ThrottleKey;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Store;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.redis.RedisStores;
import org.eclipse.microprofile.config.Config;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One application's throttling: its settings, store, decider and the plans of its methods (built once per
 * method and cached). The per-call path is: plan → identities → one store call → decision.
 */
public final class Throttling implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final ThrottleSettings settings;
    private final KeyCodec codec;
    private final Decider decider;
    private final MethodPlans plans;
    private final ConcurrentHashMap<PlanKey, MethodPlan> cache = new ConcurrentHashMap<>();

    public Throttling(ThrottleSettings settings, Config config, Store store, InstantSource clock,
                      Function<Class<? extends ThrottleKey>, ThrottleKey> resolvers) {
        this.settings = settings;
        this.codec = new KeyCodec(settings.keyPrefix());
        // the embedded store reads its own clock when the call carries none
        this.decider = new Decider(store, clock, settings.clientTime(), settings.redisTimeout(), settings.denyOnFailure(),
                Duration.ofMillis(250));
        this.plans = new MethodPlans(config, codec, resolvers);
    }

    /** Reads the settings, opens the configured store and logs which one. */
    public static Throttling start(Config config, Function<Class<? extends ThrottleKey>, ThrottleKey> resolvers) {
        ThrottleSettings settings = ThrottleSettings.read(config);
        Store store = settings.redisUri()
                .map(uri -> RedisStores.open(uri, settings.redisCluster(), settings.redisTimeout()))
                .orElseGet(() -> new MemoryStore(InstantSource.system()));
        LOG.log(System.Logger.Level.INFO, "Throttle " + (settings.enabled() ? "enabled" : "disabled (throttle.enabled=false)")
                + ", counting in the " + store.describe());
        return new Throttling(settings, config, store, InstantSource.system(), resolvers);
    }

    public ThrottleSettings settings() {
        return settings;
    }

    public KeyCodec codec() {
        return codec;
    }

    public Decider decider() {
        return decider;
    }

    /** The plan of a method, built (and checked) on first use. */
    public MethodPlan plan(Class<?> beanClass, Method method) {
        PlanKey k = new PlanKey(beanClass, method);
        MethodPlan p = cache.get(k);
        if (p == null) {
            p = cache.computeIfAbsent(k, x -> plans.plan(beanClass, method));
        }
        return p;
    }

    /** Decides one invocation of a planned method. */
    public CompletionStage<Decision> decide(MethodPlan plan, Caller caller) {
        return decider.decide(plan.call(caller, codec, decider.now()), plan.quotas());
    }

    /** Whether calls are throttled at all ({@code throttle.enabled}) and this plan is on. */
    public boolean active(MethodPlan plan) {
        return settings.enabled() && plan.enabled();
    }

    @Override
    public void close() {
        decider.store().close();
    }

    private record PlanKey(Class<?> beanClass, Method method) {
    }
}
