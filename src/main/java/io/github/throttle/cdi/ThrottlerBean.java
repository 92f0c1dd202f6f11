package io.github.throttle.cdi;

import io.github.throttle.Decision;
import io.github.throttle.Throttler;
import io.github.throttle.engine.Limit;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Rates;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** The {@link Throttler} bean: programmatic calls decided by the application's limiter. */
@ApplicationScoped
public class ThrottlerBean implements Throttler {

    @Inject
    Limiter limiter;

    @Override
    public Decision acquire(String bucket, String identity, long weight, Duration maxWait, Rate... rates) {
        return acquireAsync(bucket, identity, weight, maxWait, rates).toCompletableFuture().join();
    }

    @Override
    public CompletionStage<Decision> acquireAsync(String bucket, String identity, long weight, Duration maxWait, Rate... rates) {
        List<Limit> limits = limits(identity, rates);
        for (Limit l : limits) {
            l.checkWeight(weight).ifPresent(broken -> {
                throw new IllegalArgumentException("weight must be between 1 and the limit " + l.limit() + ", was " + weight);
            });
        }
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must be zero (never wait) or positive, was " + maxWait);
        }
        if (!maxWait.isZero() && limits.stream().anyMatch(Limit::inFlight)) {
            throw new IllegalArgumentException("a call with an in-flight rate cannot wait: a waiting call would hold no seat while it waits");
        }
        return limiter.acquire(bucket, identity, weight, true, limits, maxWait.toMillis());
    }

    @Override
    public Decision count(String bucket, String identity, Rate... rates) {
        return limiter.acquire(bucket, identity, 0, false, limits(identity, rates), 0).toCompletableFuture().join();
    }

    @Override
    public void giveBack(Decision decision) {
        decision.ending().giveBack().toCompletableFuture().join();
    }

    @Override
    public void release(Decision decision) {
        decision.ending().release().toCompletableFuture().join();
    }

    @Override
    public void reset(String bucket, String identity) {
        limiter.reset(bucket, identity).toCompletableFuture().join();
    }

    private static List<Limit> limits(String identity, Rate... rates) {
        if (rates.length == 0) {
            throw new IllegalArgumentException("at least one rate is needed");
        }
        if (identity == null || identity.isEmpty()) {
            throw new IllegalArgumentException("an identity is needed");
        }
        List<Limit> limits = new ArrayList<>(rates.length);
        for (Rate r : rates) {
            limits.add(Rates.limit(r));
        }
        return limits;
    }
}
