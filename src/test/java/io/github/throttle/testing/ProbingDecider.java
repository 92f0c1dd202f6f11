package io.github.throttle.testing;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreCallTimer;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Decider} (timeout 10 s, open period 250 ms) whose clock passes the open period before each call, so
 * that every call asks the store: a failure episode then meets the store's refusal again and again, and must
 * still be logged once. The timeout is long because a refusal is answered at once: it only keeps a slow
 * first connection on a loaded machine from passing for the failure under test.
 */
public final class ProbingDecider {

    private static final long OPEN_MILLIS = 250;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** How long {@link #decideUntilCounted} waits: only a real fault takes that long. */
    private static final long PATIENCE_SECONDS = 30;

    private final MutableClock clock = new MutableClock(0);
    private final Decider decider;

    public ProbingDecider(Store store, boolean denyOnFailure) {
        this(store, denyOnFailure, StoreCallTimer.NONE);
    }

    /** @param timer told how each store call ended */
    public ProbingDecider(Store store, boolean denyOnFailure, StoreCallTimer timer) {
        this.decider = new Decider(store, clock, false, TIMEOUT, denyOnFailure ? FailurePolicy.DENY : FailurePolicy.ALLOW, Duration.ofMillis(OPEN_MILLIS), timer);
    }

    public Decision ask(StoreCall call, List<Limit> limits) {
        clock.advanceMillis(OPEN_MILLIS + 1);
        return decider.ask(call, limits).toCompletableFuture().join();
    }

    /** Decides until the store counts again, asking it every 20 ms (at most 30 s); fails if it does not. */
    public Decision decideUntilCounted(StoreCall call, List<Limit> limits) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (true) {
            Decision d = ask(call, limits);
            if (!d.isUnmetered()) {
                return d;
            }
            if (System.nanoTime() > until) {
                throw new AssertionError("the store did not count again within " + PATIENCE_SECONDS + " s");
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
