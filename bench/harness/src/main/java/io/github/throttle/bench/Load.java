package io.github.throttle.bench;

import io.github.throttle.Decision;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * Closed-loop load: N callers, each starting its next call when the previous one has answered, for a time
 * ({@link #async}, {@link #threads}) or for a number of calls ({@link #drain}).
 */
final class Load {

    interface AsyncOp {
        /** One call; the stage's value is checked by {@code ok}. */
        CompletionStage<?> call();
    }

    interface SyncOp {
        boolean call();
    }

    interface Check {
        boolean ok(Object reply);
    }

    private Load() {
    }

    /** Whether a reply is a metered decision that allowed the call: every call of these workloads is meant to be. */
    static boolean allowed(Object r) {
        return r instanceof Decision d && d.allowed() && !d.isUnmetered();
    }

    /** Runs {@code total} calls from {@code callers} concurrent callers; calls per second. Fails unless each was {@link #allowed}. */
    static double drain(int callers, int total, IntFunction<CompletionStage<?>> op) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(callers);
        AtomicInteger bad = new AtomicInteger();
        long t0 = System.nanoTime();
        for (int i = 0; i < callers; i++) {
            new Object() {
                void go() {
                    int n;
                    while ((n = next.getAndIncrement()) < total) {
                        CompletableFuture<?> f = op.apply(n).toCompletableFuture();
                        if (f.isDone()) {
                            if (!allowed(f.join())) {
                                bad.incrementAndGet();
                            }
                            continue;
                        }
                        f.whenComplete((r, e) -> {
                            if (e != null || !allowed(r)) {
                                bad.incrementAndGet();
                            }
                            go();
                        });
                        return;
                    }
                    done.countDown();
                }
            }.go();
        }
        done.await();
        double rate = total / ((System.nanoTime() - t0) / 1e9);
        if (bad.get() > 0) {
            throw new IllegalStateException(bad.get() + " of " + total + " calls not allowed");
        }
        return rate;
    }

    /** Calls per second of {@code callers} concurrent asynchronous callers, counted after a warm-up. */
    static double async(int callers, double warmSeconds, double seconds, AsyncOp op, Check check) {
        Run run = new Run();
        CountDownLatch done = new CountDownLatch(callers);
        for (int i = 0; i < callers; i++) {
            new Chain(run, op, check, done).next();
        }
        double rate = run.measure(warmSeconds, seconds);
        await(done);
        run.failIfBad();
        return rate;
    }

    /** Calls per second of {@code callers} threads each calling synchronously. */
    static double threads(int callers, double warmSeconds, double seconds, SyncOp op) {
        Run run = new Run();
        CountDownLatch done = new CountDownLatch(callers);
        for (int i = 0; i < callers; i++) {
            Thread t = new Thread(() -> {
                try {
                    while (!run.stop) {
                        boolean ok;
                        try {
                            ok = op.call();
                        } catch (RuntimeException e) {
                            ok = false;
                            run.lastError = e;
                        }
                        run.record(ok);
                    }
                } finally {
                    done.countDown();
                }
            }, "caller-" + i);
            t.setDaemon(true);
            t.start();
        }
        double rate = run.measure(warmSeconds, seconds);
        await(done);
        run.failIfBad();
        return rate;
    }

    private static void await(CountDownLatch done) {
        try {
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("callers did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static final class Run {
        volatile boolean stop;
        volatile boolean measuring;
        final LongAdder counted = new LongAdder();
        final LongAdder bad = new LongAdder();
        final LongAdder all = new LongAdder();
        volatile Throwable lastError;

        void record(boolean ok) {
            all.increment();
            if (!ok) {
                bad.increment();
            }
            if (measuring) {
                counted.increment();
            }
        }

        double measure(double warmSeconds, double seconds) {
            sleep(warmSeconds);
            long t0 = System.nanoTime();
            measuring = true;
            sleep(seconds);
            measuring = false;
            long t1 = System.nanoTime();
            stop = true;
            return counted.sum() / ((t1 - t0) / 1e9);
        }

        void failIfBad() {
            // every call of every workload here is meant to be allowed: anything else is a broken setup
            if (bad.sum() > 0) {
                throw new IllegalStateException(bad.sum() + " of " + all.sum() + " calls were not allowed"
                        + (lastError == null ? "" : ": " + lastError), lastError);
            }
        }
    }

    private static final class Chain {
        private final Run run;
        private final AsyncOp op;
        private final Check check;
        private final CountDownLatch done;

        Chain(Run run, AsyncOp op, Check check, CountDownLatch done) {
            this.run = run;
            this.op = op;
            this.check = check;
            this.done = done;
        }

        void next() {
            while (!run.stop) {
                CompletableFuture<?> f = start();
                if (f.isDone()) {
                    // answered at once: loop here rather than nest callbacks
                    complete(f.handle((r, e) -> e == null && check.ok(r)).join(), f);
                    continue;
                }
                f.whenComplete((r, e) -> {
                    complete(e == null && check.ok(r), f);
                    next();
                });
                return;
            }
            done.countDown();
        }

        private CompletableFuture<?> start() {
            try {
                return op.call().toCompletableFuture();
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        private void complete(boolean ok, CompletableFuture<?> f) {
            if (!ok && f.isCompletedExceptionally()) {
                run.lastError = f.handle((r, e) -> e).join();
            }
            run.record(ok);
        }
    }

    static void sleep(double seconds) {
        try {
            Thread.sleep((long) (seconds * 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
