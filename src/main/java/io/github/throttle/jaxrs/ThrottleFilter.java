package io.github.throttle.jaxrs;

import io.github.throttle.Decision;
import io.github.throttle.config.ThrottleSettings.HeaderStyle;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Target;
import io.github.throttle.limiter.Verdict;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

import java.util.concurrent.CompletableFuture;

/**
 * Throttles one resource method: decides before the request entity is read and answers 429 when denied;
 * {@link Fields} puts the rate-limit fields on allowed responses. On a Quarkus event loop the request is
 * suspended while the store decides; on worker threads (and on servlet runtimes) the thread waits, at most
 * {@code throttle.redis.timeout}.
 */
final class ThrottleFilter implements ContainerRequestFilter {

    static final String DECISION = "io.github.throttle.decision";
    static final String PENDING = "io.github.throttle.pending";

    private final Limiter limiter;
    private final Target target;
    private final ForwardedFor forwarded;
    private volatile PeerAddress peer;

    ThrottleFilter(Limiter limiter, Target target) {
        this.limiter = limiter;
        this.target = target;
        this.forwarded = new ForwardedFor(limiter.settings().trustedProxies());
    }

    @Override
    public void filter(ContainerRequestContext ctx) {
        PeerAddress p = peer;
        if (p == null) {
            p = PeerAddress.forRuntime(ctx);
            peer = p;
        }
        CompletableFuture<Verdict> decision = limiter.decide(target, new HttpCaller(ctx, target.method(), p, forwarded))
                .toCompletableFuture();
        // waiting is cheaper than two thread hops, and allowed everywhere but on an event loop
        if (decision.isDone() || !QuarkusRest.PRESENT || !QuarkusRest.handles(ctx) || !QuarkusRest.onEventLoop()) {
            apply(ctx, decision.join());
            return;
        }
        // the store answers on its own thread: only hand the decision over there; the request's next filter
        // (back on the request's own thread) applies it, since aborting a request from a foreign thread races
        // with the thread that suspended it
        Pending pending = new Pending();
        ctx.setProperty(PENDING, pending);
        QuarkusRest.suspend(ctx, decision, d -> pending.decision = d);
    }

    void apply(ContainerRequestContext ctx, Verdict v) {
        if (v.refused()) {
            ctx.abortWith(RateLimitFields.denied(v.decision(), limiter.settings().headers()));
        } else if (v.showsFields()) {
            ctx.setProperty(DECISION, v.decision());
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
            if (request.getProperty(DECISION) instanceof Decision decision && response.getStatus() != 429) {
                RateLimitFields.write(decision, style, response.getHeaders());
            }
        }
    }

    /** A decision taken while the request was suspended, applied by {@link Resumed}. */
    static final class Pending {
        volatile Verdict decision;
    }

    /** Runs right after {@link ThrottleFilter}, on the resumed request's thread. */
    static final class Resumed implements ContainerRequestFilter {
        private final ThrottleFilter filter;

        Resumed(ThrottleFilter filter) {
            this.filter = filter;
        }

        @Override
        public void filter(ContainerRequestContext ctx) {
            if (ctx.getProperty(PENDING) instanceof Pending p) {
                ctx.removeProperty(PENDING);
                filter.apply(ctx, p.decision);
            }
        }
    }
}
