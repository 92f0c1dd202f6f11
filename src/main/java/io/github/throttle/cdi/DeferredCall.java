package io.github.throttle.cdi;

import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.ThrottledException;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Target;
import jakarta.interceptor.InvocationContext;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A call of a bean method whose result is decided later: the stage it returns, or each subscription to the
 * {@code Uni}, {@code Multi} or publisher it returns, is a {@link Run} of its own — decided where its caller (a
 * lazy type's subscriber) is ({@link Landing}), then the method runs there if allowed, then the run ends (its seats
 * come back, and its weight if it succeeded).
 */
final class DeferredCall {

    private static final Object ENDED = new Object();

    private final Limiter limiter;
    private final Target target;
    private final Caller caller;
    private final InvocationContext ctx;
    private final Consumer<Decision> announce;

    /**
     * @param caller   who calls, as known on the calling thread (runs may start on other threads)
     * @param announce tells the request's {@code CallDecision}, where there is one
     */
    DeferredCall(Limiter limiter, Target target, Caller caller, InvocationContext ctx, Consumer<Decision> announce) {
        this.limiter = limiter;
        this.target = target;
        this.caller = caller;
        this.ctx = ctx;
        this.announce = announce;
    }

    Run run() {
        return new Run();
    }

    /** A run whose call is reserved ahead of now: it waits for its turn, and may end (be undone) meanwhile. */
    private record Waiting(Decision decision, CompletableFuture<Decision> turn) {
    }

    /** One run of the call: decided, then (allowed) the method runs, then it ends, once. */
    final class Run {
        /**
         * Null while deciding; a {@link Waiting} while its turn comes; the decision while the method's result runs;
         * {@link #ENDED} once over.
         */
        private final AtomicReference<Object> state = new AtomicReference<>();

        /**
         * Asks for a decision; hands the allowed decision to {@code allowed}, or the refusal ({@code
         * ThrottledException}, {@code IllegalArgumentException} for a weight that could never pass, or what the
         * target's weigher threw) to {@code refused}. Neither is called for a run that has ended meanwhile (a
         * cancelled subscription): whatever an allowed decision took is then given back ({@code CallEnding#undo}),
         * at once for a call waiting for its turn. Both are called where {@link Landing} says: on this thread, which
         * waits for the decision when it may wait, or on this event loop once the decision is in.
         */
        void start(Consumer<Decision> allowed, Consumer<Throwable> refused) {
            CompletableFuture<Decision> verdict;
            try {
                verdict = limiter.decide(target, caller).toCompletableFuture().thenCompose(this::turn);
            } catch (RuntimeException e) {
                refused.accept(e);
                return;
            }
            Executor loop = verdict.isDone() ? null : Landing.eventLoop();
            if (loop != null) {
                verdict.whenComplete((d, failure) -> loop.execute(() -> settle(d, failure, allowed, refused)));
                return;
            }
            // decided, or this thread may wait: the decider bounds the wait (the store's timeout, plus the turn of
            // a call that waits for it; a run that ends meanwhile stops it)
            Decision d;
            try {
                d = verdict.join();
            } catch (CompletionException | CancellationException e) {
                settle(null, e, allowed, refused);
                return;
            }
            settle(d, null, allowed, refused);
        }

        /** Completes when the decided call may proceed; one reserved ahead of now waits, unless the run ends first. */
        private CompletableFuture<Decision> turn(Decision d) {
            if (d.waitedMillis() == 0 || d.outcome().refused()) {
                return CompletableFuture.completedFuture(d);
            }
            CompletableFuture<Decision> turn = new CompletableFuture<>();
            if (!state.compareAndSet(null, new Waiting(d, turn))) {
                // ended while it was decided
                d.ending().undo();
                return CompletableFuture.completedFuture(d);
            }
            limiter.turn(d).whenComplete((ready, failure) -> turn.complete(d));
            return turn;
        }

        private void settle(Decision d, Throwable failure, Consumer<Decision> allowed, Consumer<Throwable> refused) {
            if (failure != null || d.outcome().refused()) {
                if (state.get() != ENDED) {
                    refused.accept(failure != null ? unwrap(failure) : new ThrottledException(d));
                }
                return;
            }
            Object s = state.get();
            if (s == ENDED || !state.compareAndSet(s, d)) {
                // ended before it ran: it never runs, and nothing it took stays counted
                d.ending().undo();
                return;
            }
            allowed.accept(d);
        }

        /** Runs the method for this run's allowed decision. */
        Object proceed(Decision d) throws Exception {
            announce.accept(d);
            return ctx.proceed();
        }

        /**
         * Ends the run: its seats come back, and, when it {@code succeeded}, the weight a {@code skipSuccessful}
         * limit gives back; a run still waiting for its turn is undone at once (its reservation given back). Only the
         * first call does anything; a run still deciding ends when it is decided.
         */
        void end(boolean succeeded) {
            Object s = state.getAndSet(ENDED);
            if (s instanceof Waiting w) {
                w.decision().ending().undo();
                w.turn().cancel(false);
            } else if (s instanceof Decision d) {
                if (succeeded) {
                    d.ending().giveBack();
                }
                d.ending().release();
            }
        }

        /** Whether the run has ended (its result completed, failed or was cancelled). */
        boolean ended() {
            return state.get() == ENDED;
        }
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
