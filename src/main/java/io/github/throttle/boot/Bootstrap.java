package io.github.throttle.boot;

import io.github.throttle.ThrottleKey;
import io.github.throttle.ThrottlePlan;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCallTimer;
import io.github.throttle.fleet.SharedFleet;
import io.github.throttle.metrics.Meters;
import io.github.throttle.metrics.MetricsBackends;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.redis.ReplicationEvents;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Targets;
import io.github.throttle.limiter.Wakeups;
import io.github.throttle.testing.ThrottleClock;
import org.eclipse.microprofile.config.Config;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.Predicate;

/**
 * Where an application's {@link Limiter} is put together: its settings read, its store chosen and opened
 * (Redis when {@code throttle.redis.uri} is set, else the embedded store), and the resolvers Throttle makes.
 */
public final class Bootstrap {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");
    /** After a store failure, how long calls get the failure decision before one call probes the store. */
    private static final Duration OPEN_AFTER_FAILURE = Duration.ofMillis(250);

    private Bootstrap() {
    }

    /**
     * @param beans         the CDI bean of a {@link ThrottleKey} or {@link io.github.throttle.ThrottleWeight} class, or
     *                      a new instance of it; null when neither
     * @param registries    how to get the CDI bean of a type (a metrics registry), if the server has one
     * @param httpEndpoints which methods the HTTP filter throttles
     * @param planBean      the application's {@link ThrottlePlan}, if it has one
     * @param manual        the clock Throttle reads with {@code throttle.clock=manual}
     * @throws InvalidThrottleException naming the key of a bad setting
     */
    public static Limiter start(Config config, Function<Class<?>, Object> beans, Function<Class<?>, Optional<Supplier<Object>>> registries,
                                Predicate<Method> httpEndpoints, Optional<ThrottlePlan> planBean, ThrottleClock manual) {
        ThrottleSettings settings = ThrottleSettings.read(config);
        Meters meters = MetricsBackends.select(settings.metrics(), registries).orElseThrow(() -> new InvalidThrottleException(
                "Invalid " + ThrottleSettings.METRICS + "=" + settings.metrics() + ": this server offers no such metrics"
                        + " (its API is not visible to the application or its registry is not a CDI bean); use auto or none"));
        InstantSource clock = settings.manualClock() ? manual : InstantSource.system();
        Store store = open(settings, clock, meters);
        if (settings.manualClock()) {
            LOG.log(System.Logger.Level.WARNING, "Throttle reads a clock that stands still until a test moves it ("
                    + ThrottleSettings.CLOCK + "=manual): for tests only, never in production");
        }
        LOG.log(System.Logger.Level.INFO, "Throttle " + (settings.enabled() ? "enabled" : "disabled (throttle.enabled=false)")
                + (settings.report() ? " in report mode" : "") + ", counting in the " + store.describe()
                + ", metrics: " + meters.name());
        Wakeups wakeups = settings.manualClock() ? millis -> manual.after(Duration.ofMillis(millis)) : Wakeups.SYSTEM;
        return assemble(settings, config, store, clock, wakeups, beans, httpEndpoints, meters, planBean);
    }

    /** Puts a limiter together around a store that is already open (tests drive the clock through it). */
    public static Limiter assemble(ThrottleSettings settings, Config config, Store store, InstantSource clock,
                                   Function<Class<?>, Object> beans, Predicate<Method> httpEndpoints, Meters meters,
                                   Optional<ThrottlePlan> planBean) {
        return assemble(settings, config, store, clock, Wakeups.SYSTEM, beans, httpEndpoints, meters, planBean);
    }

    /** As above; {@code wakeups} resumes calls waiting for their turn by {@code clock}. */
    public static Limiter assemble(ThrottleSettings settings, Config config, Store store, InstantSource clock, Wakeups wakeups,
                                   Function<Class<?>, Object> beans, Predicate<Method> httpEndpoints, Meters meters,
                                   Optional<ThrottlePlan> planBean) {
        KeyCodec codec = new KeyCodec(settings.keyPrefix());
        Map<String, Meters.Timer> timers = new HashMap<>();
        for (String outcome : List.of(StoreCallTimer.SUCCESS, StoreCallTimer.FAILURE, StoreCallTimer.TIMEOUT)) {
            timers.put(outcome, meters.storeCalls(store.kind(), outcome));
        }
        FailurePolicy onFailure = switch (settings.onStoreFailure()) {
            case ALLOW -> FailurePolicy.ALLOW;
            case DENY -> FailurePolicy.DENY;
            case LOCAL -> FailurePolicy.local(settings.localShare(), () -> new MemoryStore(clock));
        };
        Decider decider = new Decider(store, clock, settings.clientTime(), settings.redisTimeout(), onFailure,
                OPEN_AFTER_FAILURE, (outcome, nanos) -> timers.get(outcome).record(nanos));
        // the header of the built-in API-key resolver is a setting, read here once
        Function<Class<?>, Object> instances =
                type -> type == ThrottleKey.ApiKey.class ? new ThrottleKey.ApiKey(settings.keyHeader()) : beans.apply(type);
        Limiter limiter = new Limiter(settings, codec, decider, new Targets(config, codec, instances, httpEndpoints, settings.report(),
                settings.leases(), meters, clock, settings.keyHeader(), planBean), clock, wakeups);
        SharedState shared = store instanceof SharedState s ? s : SharedState.none(store.describe());
        limiter.join(new SharedFleet(limiter, shared, codec, settings, clock));
        return limiter;
    }

    private static Store open(ThrottleSettings settings, InstantSource clock, Meters meters) {
        if (settings.redisUri().isEmpty()) {
            return new MemoryStore(clock);
        }
        try {
            String kind = RedisStores.kind(settings.redisUri().get(), settings.redisCluster());
            // the acknowledgement timers only where acknowledgements are asked for
            Meters.Timer acknowledged = settings.replicaAcks() > 0 ? meters.replicaAcks(kind, Meters.ACKNOWLEDGED) : nanos -> { };
            Meters.Timer lacking = settings.replicaAcks() > 0 ? meters.replicaAcks(kind, Meters.LACKING) : nanos -> { };
            Meters.Counter promotions = meters.promotions(kind);
            return RedisStores.open(settings.redisUri().get(), settings.redisCluster(), settings.redisTimeout(), settings.replicaAcks(),
                    new ReplicationEvents() {
                        @Override
                        public void waited(boolean enough, long nanos) {
                            (enough ? acknowledged : lacking).record(nanos);
                        }

                        @Override
                        public void promoted() {
                            promotions.increment();
                        }
                    });
        } catch (IllegalArgumentException e) {
            throw new InvalidThrottleException("Invalid " + e.getMessage(), e);
        }
    }
}
