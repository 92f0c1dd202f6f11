package io.github.throttle.testing;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Decider} (timeout 2 s, open period 250 ms) whose clock passes the open period before each call, so
 * that every call asks the store: a failure episode then meets the store's refusal again and again, and must
 * still be logged once.
 */
public final class ProbingDecider {

    private static final long OPEN_MILLIS = 250;

    private final MutableClock clock = new MutableClock(0);
    private final Decider decider;

    public ProbingDecider(Store store, boolean denyOnFailure) {
        this.decider = new Decider(store, clock, false, Duration.ofSeconds(2), denyOnFailure, Duration.ofMillis(OPEN_MILLIS));
    }

    public Decision decide(StoreCall call, List<Limit> limits) {
        clock.advanceMillis(OPEN_MILLIS + 1);
        return decider.decide(call, limits).toCompletableFuture().join();
    }

    /** Decides until the store counts again (at most 10 s); fails if it does not. */
    public Decision decideUntilCounted(StoreCall call, List<Limit> limits) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Decision d;
        do {
            d = decide(call, limits);
        } while (d.isUnmetered() && System.nanoTime() < until);
        if (d.isUnmetered()) {
            throw new AssertionError("the store did not count again within 10 s");
        }
        return d;
    }
}
