package io.github.throttle.jaxrs;

import io.github.throttle.Decision;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What only Quarkus REST offers: suspending a request while the store decides (no thread waits, not even
 * an event loop), the Vert.x peer address, and request headers read without copying them all. Touched only
 * when its classes are on the class path.
 */
final class QuarkusRest {

    static final boolean PRESENT = present();

    private QuarkusRest() {
    }

    private static boolean present() {
        try {
            Class.forName("org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext", false,
                    QuarkusRest.class.getClassLoader());
            Class.forName("io.vertx.core.http.HttpServerRequest", false, QuarkusRest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether this thread is a Vert.x event loop, which must never wait. */
    static boolean onEventLoop() {
        return io.vertx.core.Context.isOnEventLoopThread();
    }

    static boolean handles(ContainerRequestContext ctx) {
        return ctx instanceof ResteasyReactiveContainerRequestContext;
    }

    /** Suspends the request until the decision is in, hands it over, then resumes the request. */
    static void suspend(ContainerRequestContext ctx, CompletableFuture<Decision> verdict, Consumer<Decision> handOver) {
        ResteasyReactiveContainerRequestContext rr = (ResteasyReactiveContainerRequestContext) ctx;
        rr.suspend();
        verdict.whenComplete((v, e) -> {
            if (e != null) {
                rr.resume(e);
            } else {
                handOver.accept(v);
                rr.resume();
            }
        });
    }

    /** Runs {@code then} once the request has completed, however it ended (an unmapped exception too). */
    static void whenCompleted(ContainerRequestContext ctx, Runnable then) {
        ResteasyReactiveRequestContext rc = context(ctx);
        if (rc != null) {
            rc.registerCompletionCallback(failure -> then.run());
        }
    }

    /**
     * The first value of a request header (null when absent or empty), read from Vert.x unless a filter has
     * already looked at the headers through JAX-RS, whose first look copies them all.
     */
    static String header(ContainerRequestContext ctx, String name) {
        ResteasyReactiveRequestContext rc = context(ctx);
        return rc != null ? (String) rc.getHeader(name, true) : ctx.getHeaders().getFirst(name);
    }

    /** Quarkus REST's own context of the request, or null for another runtime's. */
    private static ResteasyReactiveRequestContext context(ContainerRequestContext ctx) {
        return ctx instanceof ResteasyReactiveContainerRequestContext rr
                && rr.getServerRequestContext() instanceof ResteasyReactiveRequestContext rc ? rc : null;
    }

    static String peer(ContainerRequestContext ctx) {
        ResteasyReactiveRequestContext rc = context(ctx);
        if (rc != null) {
            HttpServerRequest req = rc.serverRequest().unwrap(HttpServerRequest.class);
            if (req != null) {
                SocketAddress a = req.remoteAddress();
                return a == null ? null : ForwardedFor.address(a.hostAddress());
            }
        }
        return null;
    }
}
