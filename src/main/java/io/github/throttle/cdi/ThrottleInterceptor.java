package io.github.throttle.cdi;

import io.github.throttle.CallDecision;
import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.github.throttle.config.ReturnTypes;
import io.github.throttle.ThrottledException;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Target;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.logging.Logger;

/**
 * Throttles {@link Throttle}d CDI bean methods: a denied or blocked call throws {@link ThrottledException} (in
 * report mode it is let through), one whose weight could never pass {@link IllegalArgumentException}; a call that
 * returns normally gives its weight back where the target says so ({@code skipSuccessful}); a call that holds
 * seats ({@code inFlight}) releases them when it returns or throws. A method returning a {@code CompletionStage},
 * {@code CompletableFuture}, {@code Uni}, {@code Multi} or a publisher returns a result of that type that decides,
 * runs the method and ends the call ({@link AsyncResults}): on the caller's thread when it may wait, without
 * blocking on an event loop ({@link Landing}). JAX-RS
 * resource methods are left to the HTTP filter, which decides before the request entity is read, so each call is
 * counted once; only the seats of one that throws are released here.
 */
@Throttle(limit = 1)
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER + 100)
public class ThrottleInterceptor {

    private static final Logger LOG = Logger.getLogger(ThrottleInterceptor.class.getName());

    @Inject
    Limiter limiter;

    @Inject
    PrincipalLookup principals;

    @Inject
    Instance<CallDecision> current;

    @AroundInvoke
    Object throttle(InvocationContext ctx) throws Exception {
        Method method = ctx.getMethod();
        Limiter l = limiter;
        Target target = l.target(method.getDeclaringClass(), method);
        if (!l.active(target)) {
            return ctx.proceed();
        }
        if (target.httpEndpoint()) {
            return target.holdsSeats() ? endingOnThrow(ctx) : ctx.proceed();
        }
        BeanCaller caller = new BeanCaller(method, principals.current());
        ReturnTypes.Kind kind = ReturnTypes.of(method);
        if (kind != ReturnTypes.Kind.PLAIN) {
            // no thread waits for the store: the result returned decides, runs the method and ends the call
            return AsyncResults.of(kind, new DeferredCall(l, target, caller, ctx, this::announce));
        }
        CompletableFuture<Decision> verdict = l.admit(target, caller).toCompletableFuture();
        if (!verdict.isDone() && Landing.eventLoop() != null && target.firstWaitOnEventLoop()) {
            LOG.warning(() -> "Throttle: " + target.name() + " returns a plain value and is called on an event loop ("
                    + Thread.currentThread().getName() + "): it blocks that event loop while the store decides. Return a "
                    + "CompletionStage or Uni to be decided without blocking, or call it from a worker thread.");
        }
        Decision d = verdict.join();
        if (d.outcome().refused()) {
            throw new ThrottledException(d);
        }
        announce(d);
        Object result;
        try {
            result = ctx.proceed();
        } catch (Exception | Error e) {
            // a thrown exception keeps the charge, and ends the call
            d.ending().release();
            throw e;
        }
        // reached only when the method returned normally
        d.ending().giveBack();
        if (result instanceof CompletionStage<?> stage && target.holdsSeats()) {
            // declared as another type (Object, say): the call still ends when its stage completes
            stage.whenComplete((r, e) -> d.ending().release());
        } else {
            d.ending().release();
        }
        return result;
    }

    /** Tells this request's {@link CallDecision}, where a request context is active on this thread. */
    private void announce(Decision d) {
        if (current.isResolvable()) {
            try {
                current.get().set(d);
            } catch (ContextNotActiveException e) {
                // no request here (a scheduled job, say): nobody to tell
            }
        }
    }

    /**
     * Runs a resource method whose call holds seats: the HTTP filter releases them once the response is written,
     * but a method that throws ends the call at once, and an exception no mapper handles may reach the runtime
     * without the response filters running (Quarkus REST answers 500 so): the call's decision, when this request
     * has one, releases its seats here. A decision releases its seats once, whoever comes first.
     */
    private Object endingOnThrow(InvocationContext ctx) throws Exception {
        try {
            return ctx.proceed();
        } catch (Exception | Error e) {
            if (current.isResolvable()) {
                try {
                    current.get().get().ifPresent(Decision::release);
                } catch (ContextNotActiveException notInARequest) {
                    // no request context: the filter's response path is all there is
                }
            }
            throw e;
        }
    }

    /** The caller of a bean method: its principal if the container knows one; no address, no headers. */
    private record BeanCaller(Method method, Optional<Principal> principal) implements Caller {
        @Override
        public Optional<String> clientAddress() {
            return Optional.empty();
        }

        @Override
        public Optional<String> header(String name) {
            return Optional.empty();
        }
    }
}
