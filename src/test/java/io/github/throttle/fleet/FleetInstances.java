package io.github.throttle.fleet;

import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Store;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.metrics.Meters;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import org.eclipse.microprofile.config.Config;

import java.lang.reflect.Method;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;

/** Instances of one application, each a limiter on its own store client, as the fleet tests start them. */
final class FleetInstances {

    /** The bucket {@link Api#search} counts in. */
    static final String BUCKET = "search";

    static class Api {
        @Throttle(limit = 2, duration = 60, name = BUCKET, key = ThrottleKey.ApiKey.class)
        @Throttle(limit = 100, duration = 60, name = BUCKET, key = ThrottleKey.ApiKey.class, plan = "pro")
        public void search() { }
    }

    private FleetInstances() {
    }

    /** An instance counting in {@code store}, with the target {@link Api#search} built. */
    static Limiter start(Store store, InstantSource clock) {
        Config c = TestConfig.of();
        Limiter l = Bootstrap.assemble(ThrottleSettings.read(c), c, store, clock, type -> null, m -> false, Meters.NONE, Optional.empty());
        l.target(Api.class, search());
        return l;
    }

    static SharedFleet fleet(Limiter l) {
        return l.fleet(SharedFleet.class);
    }

    static Administration admin(Limiter l) {
        return fleet(l).admin();
    }

    /** A call of {@link Api#search} by {@code caller}, decided. */
    static Decision call(Limiter l, Caller caller) {
        return l.admit(l.target(Api.class, search()), caller).toCompletableFuture().join();
    }

    static TestCaller key(String key) {
        return new TestCaller("192.0.2.1", null, Map.of("X-API-Key", key));
    }

    private static Method search() {
        try {
            return Api.class.getDeclaredMethod("search");
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
