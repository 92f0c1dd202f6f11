package io.github.throttle.jaxrs;

import io.github.throttle.CallDecision;
import io.github.throttle.Decision;
import io.github.throttle.config.ThrottleSettings.HeaderStyle;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Target;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;

import java.io.IOException;

import java.util.concurrent.CompletableFuture;

/**
 * Throttles one resource method: decides before the request entity is read and answers 429 when denied (403
 * when blocked, 400 when the call's weight could never pass); {@link Fields} puts the rate-limit fields on
 * allowed responses, {@link GiveBack} returns the weight of successful ones where the target says so. On a Quarkus
 * event loop ({@link EventLoopDecision}) the request is suspended while the store decides, and the decision is
 * applied where it resumes ({@link #resumed}); on worker threads (and on servlet runtimes, whose filters are
 * synchronous) the thread waits, at most {@code throttle.redis.timeout}. A call is decided once, by whichever of the
 * two meets it first.
 */
final class ThrottleFilter implements ContainerRequestFilter {

    /** The decision whose fields an allowed response carries. */
    static final String FIELDS = "io.github.throttle.fields";
    static final String PENDING = "io.github.throttle.pending";

    private final Limiter limiter;
    private final Target target;
    private final ForwardedFor forwarded;
    /** The request-scoped holder of the call's decision (a client proxy); null where it is not a bean. */
    private final CallDecision current;
    private volatile PeerAddress peer;

    ThrottleFilter(Limiter limiter, Target target, CallDecision current) {
        this.limiter = limiter;
        this.target = target;
        this.current = current;
        this.forwarded = new ForwardedFor(limiter.settings().trustedProxies());
    }

    Target target() {
        return target;
    }

    @Override
    public void filter(ContainerRequestContext ctx) {
        if (ctx.getProperty(PENDING) != null || ctx.getProperty(CallDecision.PROPERTY) != null) {
            // decided already, on the event loop
            return;
        }
        PeerAddress p = peer;
        if (p == null) {
            p = PeerAddress.forRuntime(ctx);
            peer = p;
        }
        CompletableFuture<Decision> verdict;
        try {
            verdict = limiter.admit(target, new HttpCaller(ctx, target.method(), p, forwarded)).toCompletableFuture();
        } catch (Limiter.Overweight e) {
            ctx.abortWith(RateLimitFields.overweight(e.getMessage()));
            return;
        }
        // waiting is cheaper than two thread hops, and allowed everywhere but on an event loop
        if (verdict.isDone() || !QuarkusRest.PRESENT || !QuarkusRest.handles(ctx) || !QuarkusRest.onEventLoop()) {
            apply(ctx, verdict.join());
            return;
        }
        // the store answers on its own thread: only hand the decision over there; the request's next filter
        // (back on the request's own thread) applies it, since aborting a request from a foreign thread races
        // with the thread that suspended it
        Pending pending = new Pending(this);
        ctx.setProperty(PENDING, pending);
        QuarkusRest.suspend(ctx, verdict, v -> pending.verdict = v);
    }

    void apply(ContainerRequestContext ctx, Decision d) {
        if (d.outcome().refused()) {
            ctx.abortWith(RateLimitFields.denied(d, limiter.settings().headers()));
            return;
        }
        ctx.setProperty(CallDecision.PROPERTY, d);
        if (target.holdsSeats() && QuarkusRest.PRESENT && QuarkusRest.handles(ctx)) {
            // an exception no mapper handles ends the request without the response filters: the seats come back
            // when Quarkus REST completes it, however it ends
            QuarkusRest.whenCompleted(ctx, d.ending()::release);
        }
        if (current != null) {
            try {
                current.set(d);
            } catch (ContextNotActiveException e) {
                // no request context on this thread: the request property is still there
            }
        }
        // report mode sends no fields, and a decision without figures has none to send
        if (!target.report() && !d.isUnmetered()) {
            ctx.setProperty(FIELDS, d);
        }
    }

    /** Puts the rate-limit fields of the decision on an allowed response (not registered for {@code none}). */
    static final class Fields implements ContainerResponseFilter {
        private final HeaderStyle style;

        Fields(HeaderStyle style) {
            this.style = style;
        }

        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            if (request.getProperty(FIELDS) instanceof Decision decision && response.getStatus() != 429) {
                RateLimitFields.write(decision, style, response.getHeaders());
            }
        }
    }

    /**
     * Gives a successful call's weight back ({@code skipSuccessful}): registered only on targets that do. The
     * give-back is sent before the response is; nothing waits for it, since every later call through this
     * instance reaches the store after it.
     */
    static final class GiveBack implements ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            if (response.getStatus() < 400 && request.getProperty(CallDecision.PROPERTY) instanceof Decision decision) {
                decision.ending().giveBack();
            }
        }
    }


    /**
     * Releases an allowed call's seats ({@code inFlight}) when the call ends: registered only on targets that
     * hold seats. A response with an entity ends once the entity is written (streamed bodies included), so the
     * seats are released after the writers ran, whether they succeeded or threw; a response with none (or to a
     * {@code HEAD} request, whose entity is not written everywhere) ends with the response filters. Response
     * filters run for a response the resource returned, for one an exception mapper made and for a request a
     * later filter aborted; for an exception no mapper handles, Quarkus REST's completion of the request releases
     * them ({@link ThrottleFilter#apply}), and on the servlet runtimes the CDI interceptor of a method that declares
     * its limit itself does. The decision
     * releases its seats once, whichever of the two comes first.
     */
    static final class Release implements ContainerResponseFilter, WriterInterceptor {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            if ((!response.hasEntity() || "HEAD".equals(request.getMethod()))
                    && request.getProperty(CallDecision.PROPERTY) instanceof Decision decision) {
                decision.ending().release();
            }
        }

        @Override
        public void aroundWriteTo(WriterInterceptorContext ctx) throws IOException {
            try {
                ctx.proceed();
            } finally {
                if (ctx.getProperty(CallDecision.PROPERTY) instanceof Decision decision) {
                    decision.ending().release();
                }
            }
        }
    }

    /** A decision taken while the request was suspended, applied by {@link #resumed}. */
    static final class Pending {
        private final ThrottleFilter filter;
        volatile Decision verdict;

        Pending(ThrottleFilter filter) {
            this.filter = filter;
        }
    }

    /** {@link #resumed} as a request filter of its own. */
    static final class Resumed implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext ctx) {
            resumed(ctx);
        }
    }

    /**
     * Applies a decision taken while the request was suspended: run by the request filter that follows the one that
     * decided, on the resumed request's thread; once.
     */
    static void resumed(ContainerRequestContext ctx) {
        if (ctx.getProperty(PENDING) instanceof Pending p) {
            ctx.removeProperty(PENDING);
            p.filter.apply(ctx, p.verdict);
        }
    }
}
