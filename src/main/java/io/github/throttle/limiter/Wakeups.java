package io.github.throttle.limiter;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/** Where a call that waits for its turn resumes: once its wait is over, by the clock Throttle reads. */
@FunctionalInterface
public interface Wakeups {

    /** The system clock's: a wait takes real time. */
    Wakeups SYSTEM = millis -> CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS);

    /** Runs each task given {@code millis} after now. */
    Executor after(long millis);
}
