package io.github.throttle.jaxrs;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Vetoed;
import jakarta.inject.Singleton;
import jakarta.ws.rs.container.ResourceInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

/**
 * Quarkus REST only: decides a throttled call on the event loop, before the request is dispatched to a worker
 * thread. While the store answers, the request is suspended and no thread waits; it resumes on its event loop,
 * where {@link #resumed} applies the decision: a refused call is answered from there and never reaches a worker,
 * an allowed one goes on to its worker (or stays on the event loop, for a non-blocking endpoint).
 *
 * <p>Quarkus REST registers these filters at build time, bound by name to the resource methods (or classes) that
 * carry {@link Throttle} (or several, {@link Throttle.List}); the {@link ThrottledMethods} filled at deployment
 * gives each its filter. They come before every other request filter that runs after matching: Quarkus REST
 * requires non-blocking filters to. A call is decided once: the method's own {@link ThrottleFilter}, registered at
 * deployment, sees the decision and lets it stand; it decides instead where this one did not (the target calls code
 * marked blocking, or its annotation is inherited rather than declared, which name binding does not see).
 *
 * <p>Not a managed bean: {@link Producer} makes it, so that the annotations that bind these methods by name do not
 * also bind the CDI interceptor to them. On other servers nothing loads it: {@code beans.xml} leaves the producer
 * out where Quarkus REST is not.
 */
@Vetoed
public class EventLoopDecision {

    /** Before any request filter of the application that runs after matching. */
    static final int PRIORITY = Integer.MIN_VALUE;

    private final ThrottledMethods methods;

    EventLoopDecision(ThrottledMethods methods) {
        this.methods = methods;
    }

    @ServerRequestFilter(nonBlocking = true, priority = PRIORITY)
    @Throttle(limit = 1)
    public void decide(ResteasyReactiveContainerRequestContext ctx, ResourceInfo resource) {
        if (QuarkusRest.onEventLoop()) {
            ThrottleFilter filter = methods.onEventLoop(resource.getResourceMethod());
            if (filter != null) {
                filter.filter(ctx);
            }
        }
    }

    @ServerRequestFilter(nonBlocking = true, priority = PRIORITY + 1)
    @Throttle(limit = 1)
    public void resumed(ResteasyReactiveContainerRequestContext ctx) {
        ThrottleFilter.resumed(ctx);
    }

    /** {@link #decide} for a method with several limits. */
    @ServerRequestFilter(nonBlocking = true, priority = PRIORITY)
    @Throttle.List(@Throttle(limit = 1))
    public void decideAll(ResteasyReactiveContainerRequestContext ctx, ResourceInfo resource) {
        decide(ctx, resource);
    }

    /** {@link #resumed} for a method with several limits. */
    @ServerRequestFilter(nonBlocking = true, priority = PRIORITY + 1)
    @Throttle.List(@Throttle(limit = 1))
    public void resumedAll(ResteasyReactiveContainerRequestContext ctx) {
        resumed(ctx);
    }

    /** Makes the filters' instance: a produced object is not intercepted. */
    @Dependent
    public static class Producer {
        @Produces
        @Singleton
        static EventLoopDecision filters(ThrottledMethods methods) {
            return new EventLoopDecision(methods);
        }
    }
}
