package io.github.throttle.testing;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Throttle's time in an application's tests, with {@code throttle.clock=manual}: it stands still until the test
 * moves it with {@link #advance(Duration)}. Inject it ({@code @Inject ThrottleClock clock}); the embedded store,
 * the deny cache, assignments and calls waiting for their turn all read it, so a test sees "the sixth call in a
 * minute is refused, and a minute later it passes" without waiting a minute. Injecting it while
 * {@code throttle.clock} is {@code system} fails, naming the setting.
 *
 * <p>It starts at midnight (UTC) of the day the application started, so that a fixed window of a second, a
 * minute or an hour starts with it and a test's figures are the same every run; it never goes back, and the tests
 * of one application share it: a test that needs a window of its own starts it with {@link #advanceToNext}. A call that
 * waits for its turn on a blocking path (a plain bean method, {@code Throttler.acquire}) holds its thread until
 * another thread moves the clock: make such calls from another thread, or through {@code acquireAsync}.
 */
public class ThrottleClock implements InstantSource {

    /** A task to run once the clock reaches {@code at}; {@code order} keeps tasks due together in the order given. */
    private record Due(long at, long order, Runnable task) {
    }

    private final PriorityQueue<Due> due = new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at)
            : Long.compare(a.order, b.order));
    /** What the clock shows. */
    private long millis;
    /** Where the clock is moving to: what it shows once the calls due by then have run. */
    private long target;
    private long given;
    /** Held by the thread running waiting calls: they run one at a time, in the order of their times. */
    private final ReentrantLock running = new ReentrantLock();

    /** A clock at midnight (UTC) of today. */
    public ThrottleClock() {
        this(Instant.now().truncatedTo(ChronoUnit.DAYS));
    }

    /**
     * A clock at {@code start}.
     *
     * @param start the time it shows until moved
     */
    public ThrottleClock(Instant start) {
        this.millis = start.toEpochMilli();
        this.target = millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public synchronized long millis() {
        return millis;
    }

    /**
     * Moves the clock forward. Calls waiting for their turn ({@code maxWaitMillis}) whose time has come proceed,
     * in the order of their times, before this method returns. Steps taken from several threads at once add up, and
     * each waiting call proceeds once.
     *
     * @param by how far; zero or more
     * @throws IllegalArgumentException when {@code by} is negative: this clock never goes back
     */
    public void advance(Duration by) {
        if (Objects.requireNonNull(by, "by").isNegative()) {
            throw new IllegalArgumentException("ThrottleClock never goes back: " + by);
        }
        long step = by.toMillis();
        synchronized (this) {
            target = Math.addExact(target, step);
        }
        catchUp();
    }

    /**
     * Moves the clock forward to the next instant that is a whole multiple of {@code unit} since the epoch: the
     * start of the next fixed window of that length (and of the next sub-bucket of a sliding window of that
     * precision), so that a test starts its window afresh whatever earlier tests did to the clock. From a whole
     * multiple, it moves a whole {@code unit}. Waiting calls proceed as with {@link #advance}.
     *
     * @param unit a window's length, or a precision; positive
     * @return the instant the clock moved to
     * @throws IllegalArgumentException when {@code unit} is not positive
     */
    public Instant advanceToNext(Duration unit) {
        long every = Objects.requireNonNull(unit, "unit").toMillis();
        if (every <= 0) {
            throw new IllegalArgumentException("advanceToNext needs a positive unit of at least a millisecond: " + unit);
        }
        long next;
        synchronized (this) {
            next = Math.addExact(Math.floorDiv(target, every) * every, every);
            target = next;
        }
        catchUp();
        return Instant.ofEpochMilli(next);
    }

    /**
     * Runs the waiting calls due by the time the clock is moving to, in time order, one thread at a time; then the
     * clock shows that time.
     */
    private void catchUp() {
        running.lock();
        try {
            while (true) {
                Due next;
                synchronized (this) {
                    next = due.peek();
                    if (next == null || next.at > target) {
                        millis = target;
                        return;
                    }
                    due.poll();
                    millis = Math.max(millis, next.at);
                }
                next.task.run();
            }
        } finally {
            running.unlock();
        }
    }

    /**
     * Where work runs once this clock has moved {@code delay} past the moment it is given: at once for a delay of
     * zero or less, else by the {@link #advance} that reaches its time.
     *
     * @param delay how long after now, by this clock
     * @return an executor that runs each task at its time
     */
    public Executor after(Duration delay) {
        return task -> {
            Objects.requireNonNull(task, "task");
            synchronized (this) {
                if (!delay.isNegative() && !delay.isZero()) {
                    due.add(new Due(millis + delay.toMillis(), given++, task));
                    return;
                }
            }
            task.run();
        };
    }

    /**
     * What waits for this clock: how many tasks are due later.
     *
     * @return the number of tasks not yet run
     */
    public synchronized int waiting() {
        return due.size();
    }

    @Override
    public String toString() {
        return "ThrottleClock[" + instant() + ", " + waiting() + " waiting]";
    }
}
