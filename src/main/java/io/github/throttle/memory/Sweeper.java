package io.github.throttle.memory;

import java.time.InstantSource;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;

/**
 * Runs the eviction of expired identities off the caller's thread, one at a time, when the store has
 * doubled in size since the last sweep or {@link #INTERVAL_MILLIS} of store time have passed: memory stays
 * proportional to the identities active within their windows.
 */
final class Sweeper {

    static final long INTERVAL_MILLIS = 10_000;
    private static final int MIN_SIZE = 1024;

    private final InstantSource clock;
    private final IntSupplier size;
    private final LongConsumer evictExpiredAt;
    private final Executor sweeps;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile long nextAt = Long.MIN_VALUE;
    private volatile int nextAtSize = MIN_SIZE;

    /** @param sweeps runs each sweep: off the caller's thread, except in tests */
    Sweeper(InstantSource clock, IntSupplier size, LongConsumer evictExpiredAt, Executor sweeps) {
        this.clock = clock;
        this.size = size;
        this.evictExpiredAt = evictExpiredAt;
        this.sweeps = sweeps;
    }

    /** Called after each decision at store time {@code now}; starts a sweep when one is due. */
    void afterCall(long now) {
        if ((now >= nextAt || size.getAsInt() >= nextAtSize) && running.compareAndSet(false, true)) {
            nextAt = now + INTERVAL_MILLIS;
            sweeps.execute(() -> {
                try {
                    evictExpiredAt.accept(clock.millis());
                    nextAtSize = Math.max(MIN_SIZE, size.getAsInt() * 2);
                } finally {
                    running.set(false);
                }
            });
        }
    }
}
