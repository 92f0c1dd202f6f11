package io.github.throttle.jaxrs;

import io.github.throttle.Decision;
import io.github.throttle.plan.MethodPlan;
import io.github.throttle.plan.Throttling;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

import java.util.concurrent.CompletableFuture;

/**
 * Throttles one resource method: decides before the request entity is read, answers 429 when denied, and
 * puts the rate-limit fields on allowed responses. On Quarkus REST the request is suspended while the
 * store decides; elsewhere the request thread waits, at most {@code throttle.redis.timeout}.
 */
final class ThrottleFilter implements ContainerRequestFilter, ContainerResponseFilter {

    static final String DECISION = "io.github.throttle.decision";

    private final Throttling throttling;
    private final MethodPlan plan;
    private final ForwardedFor forwarded;
    private volatile PeerAddress peer;

    ThrottleFilter(Throttling throttling, MethodPlan plan) {
        this.throttling = throttling;
        this.plan = plan;
        this.forwarded = new ForwardedFor(throttling.settings().trustedProxies());
    }

    @Override
    public void filter(ContainerRequestContext ctx) {
        PeerAddress p = peer;
        if (p == null) {
            p = PeerAddress.forRuntime(ctx);
            peer = p;
        }
        CompletableFuture<Decision> decision = throttling.decide(plan, new HttpCaller(ctx, plan.method(), p, forwarded))
                .toCompletableFuture();
        if (decision.isDone() || !QuarkusRest.PRESENT || !QuarkusRest.suspend(ctx, decision, this::apply)) {
            apply(ctx, decision.join());
        }
    }

    private void apply(ContainerRequestContext ctx, Decision d) {
        if (d.allowed()) {
            ctx.setProperty(DECISION, d);
        } else {
            ctx.abortWith(RateLimitFields.denied(d, throttling.settings().headers()));
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object d = request.getProperty(DECISION);
        if (d instanceof Decision decision && response.getStatus() != 429) {
            RateLimitFields.write(decision, throttling.settings().headers(), response.getHeaders());
        }
    }
}
