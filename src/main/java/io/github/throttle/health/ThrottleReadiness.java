package io.github.throttle.health;

import io.github.throttle.limiter.Limiter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The readiness check {@code throttle}, where MicroProfile Health is present: which store counts and whether
 * it can decide — it answers, within {@code throttle.redis.timeout}, a call recorded on a key of its own that no
 * caller is charged on (Redis: one run of the script, so a missing permission or an out-of-memory Redis counts
 * as unreachable). The check and the decisions
 * agree: once it says reachable, the next call is decided by the store. {@code DOWN} only
 * when the store cannot be reached and calls are then denied ({@code throttle.on-store-failure=deny}): with
 * {@code allow} the application still serves, uncounted. Never a liveness check: restarting the application
 * does not bring Redis back.
 */
@Readiness
@ApplicationScoped
public class ThrottleReadiness implements HealthCheck {

    /** The check's name. */
    public static final String NAME = "throttle";

    @Inject
    Limiter limiter;

    @Override
    public HealthCheckResponse call() {
        boolean reachable = limiter.storeReachable().toCompletableFuture().join();
        return HealthCheckResponse.named(NAME)
                .status(reachable || !limiter.deniesOnStoreFailure())
                .withData("store", limiter.storeKind())
                .withData("reachable", reachable)
                .build();
    }
}
