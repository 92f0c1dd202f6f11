package io.github.throttle.cdi;

import io.github.throttle.config.ReturnTypes;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.Function;

/**
 * The result a throttled bean method returns in place of its own, for each return type followed
 * ({@link ReturnTypes.Kind}): it decides where its caller is ({@link Landing}; a stage when called, a lazy type on
 * each subscription, where it is subscribed), runs the method when allowed, fails with the refusal otherwise, and holds the call's seats until it completes, fails
 * or is cancelled. Mutiny and Reactive Streams classes are touched only for methods that return their types.
 */
final class AsyncResults {

    private AsyncResults() {
    }

    static Object of(ReturnTypes.Kind kind, DeferredCall call) {
        return switch (kind) {
            case STAGE -> stage(call);
            case FLOW_PUBLISHER -> new DeferredPublisher(call, AsyncResults::flowPublisher);
            case PUBLISHER -> ReactiveStreams.publisher(call);
            case UNI -> MutinyResults.uni(call);
            case MULTI -> MutinyResults.multi(call);
            case PLAIN -> throw new IllegalArgumentException("decided before it runs: " + kind);
        };
    }

    /**
     * A stage completed as the method's own once it is allowed and has run; failed with the refusal, or with what
     * the method threw. Completing or cancelling it ends the call; cancelling it cancels the method's stage too.
     */
    static CompletableFuture<Object> stage(DeferredCall call) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        DeferredCall.Run run = call.run();
        result.whenComplete((value, failure) -> run.end(false));
        run.start(decision -> {
            Object returned;
            try {
                returned = run.proceed(decision);
            } catch (Exception | Error e) {
                run.end(false);
                result.completeExceptionally(e);
                return;
            }
            if (returned == null) {
                run.end(true);
                result.complete(null);
                return;
            }
            CompletionStage<?> own = (CompletionStage<?>) returned;
            own.whenComplete((value, failure) -> {
                // the seats come back before anyone waiting for the result goes on
                run.end(failure == null);
                if (failure == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(failure);
                }
            });
            result.whenComplete((value, failure) -> {
                if (result.isCancelled()) {
                    own.toCompletableFuture().cancel(false);
                }
            });
        }, result::completeExceptionally);
        return result;
    }

    @SuppressWarnings("unchecked")
    private static Flow.Publisher<Object> flowPublisher(Object returned) {
        return (Flow.Publisher<Object>) returned;
    }

    /**
     * A publisher that decides each subscription, then subscribes to the method's own publisher; the subscription
     * ends (seats back) when that completes, fails or is cancelled. Demand asked before the method's publisher is
     * there is passed on to it.
     */
    static final class DeferredPublisher implements Flow.Publisher<Object> {
        private final DeferredCall call;
        private final Function<Object, Flow.Publisher<Object>> asFlow;

        DeferredPublisher(DeferredCall call, Function<Object, Flow.Publisher<Object>> asFlow) {
            this.call = call;
            this.asFlow = asFlow;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super Object> subscriber) {
            new Relay(call.run(), subscriber).start();
        }

        private final class Relay implements Flow.Subscription, Flow.Subscriber<Object> {
            private final DeferredCall.Run run;
            private final Flow.Subscriber<? super Object> downstream;
            private Flow.Subscription upstream;
            private long demand;
            private boolean cancelled;

            Relay(DeferredCall.Run run, Flow.Subscriber<? super Object> downstream) {
                this.run = run;
                this.downstream = downstream;
            }

            void start() {
                downstream.onSubscribe(this);
                if (isCancelled()) {
                    // cancelled as it subscribed: nothing is asked, nothing charged
                    return;
                }
                run.start(decision -> {
                    Flow.Publisher<Object> own;
                    try {
                        Object returned = run.proceed(decision);
                        if (returned == null) {
                            throw new NullPointerException("the throttled method returned null");
                        }
                        own = asFlow.apply(returned);
                    } catch (Exception | Error e) {
                        fail(e);
                        return;
                    }
                    own.subscribe(this);
                }, this::fail);
            }

            private void fail(Throwable e) {
                run.end(false);
                if (!isCancelled()) {
                    downstream.onError(e);
                }
            }

            private synchronized boolean isCancelled() {
                return cancelled;
            }

            @Override
            public void request(long n) {
                Flow.Subscription up;
                synchronized (this) {
                    up = upstream;
                    if (up == null) {
                        // passed on as asked (an invalid amount too: the method's publisher answers it)
                        demand = n <= 0 || demand < 0 ? Math.min(n, demand) : demand + n < 0 ? Long.MAX_VALUE : demand + n;
                        return;
                    }
                }
                up.request(n);
            }

            @Override
            public void cancel() {
                Flow.Subscription up;
                synchronized (this) {
                    cancelled = true;
                    up = upstream;
                }
                run.end(false);
                if (up != null) {
                    up.cancel();
                }
            }

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                long asked;
                boolean gone;
                synchronized (this) {
                    upstream = subscription;
                    asked = demand;
                    gone = cancelled;
                }
                if (gone) {
                    subscription.cancel();
                } else if (asked != 0) {
                    subscription.request(asked);
                }
            }

            @Override
            public void onNext(Object item) {
                downstream.onNext(item);
            }

            @Override
            public void onError(Throwable failure) {
                fail(failure);
            }

            @Override
            public void onComplete() {
                run.end(true);
                downstream.onComplete();
            }
        }
    }

    /** Reactive Streams publishers, through the Flow one; touched only for methods that return one. */
    private static final class ReactiveStreams {
        static Object publisher(DeferredCall call) {
            return org.reactivestreams.FlowAdapters.toPublisher(new DeferredPublisher(call,
                    returned -> org.reactivestreams.FlowAdapters.toFlowPublisher(asPublisher(returned))));
        }

        @SuppressWarnings("unchecked")
        private static org.reactivestreams.Publisher<Object> asPublisher(Object returned) {
            return (org.reactivestreams.Publisher<Object>) returned;
        }
    }
}
