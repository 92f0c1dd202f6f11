package io.github.throttle.cdi;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code Uni} and {@code Multi} results of throttled bean methods (see {@link AsyncResults}). Touched only for
 * methods that return them, so only where Mutiny is present; nothing here appears in another class's signatures.
 */
final class MutinyResults {

    private MutinyResults() {
    }

    /**
     * A {@code Uni} that decides on each subscription, where it is subscribed ({@link Landing}), then subscribes to the method's own; the subscription ends
     * when that emits its item or failure, or is cancelled.
     */
    static Object uni(DeferredCall call) {
        return Uni.createFrom().emitter(emitter -> {
            DeferredCall.Run run = call.run();
            AtomicReference<Cancellable> own = new AtomicReference<>();
            // called when the subscriber cancels, and after the item or failure (the run has ended then)
            emitter.onTermination(() -> {
                run.end(false);
                Cancellable c = own.get();
                if (c != null) {
                    c.cancel();
                }
            });
            if (run.ended()) {
                // cancelled as it subscribed (the termination ran at once): nothing is asked, nothing charged
                return;
            }
            run.start(decision -> {
                Uni<?> returned;
                try {
                    returned = (Uni<?>) run.proceed(decision);
                    if (returned == null) {
                        throw new NullPointerException("the throttled method returned null");
                    }
                } catch (Exception | Error e) {
                    run.end(false);
                    emitter.fail(e);
                    return;
                }
                own.set(returned.subscribe().with(item -> {
                    run.end(true);
                    emitter.complete(item);
                }, failure -> {
                    run.end(false);
                    emitter.fail(failure);
                }));
                if (run.ended()) {
                    // cancelled while the method ran (or already over: cancelling then does nothing)
                    own.get().cancel();
                }
            }, emitter::fail);
        });
    }

    /** A {@code Multi} that decides on each subscription (see {@link AsyncResults.DeferredPublisher}). */
    static Object multi(DeferredCall call) {
        return Multi.createFrom().publisher(new AsyncResults.DeferredPublisher(call, MutinyResults::asFlow));
    }

    @SuppressWarnings("unchecked")
    private static Flow.Publisher<Object> asFlow(Object returned) {
        return (Multi<Object>) returned;
    }
}
