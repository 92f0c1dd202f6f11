package io.github.throttle.jaxrs;

import jakarta.ws.rs.container.ContainerRequestContext;


/**
 * The address of the connection's peer. JAX-RS has no portable way to ask, so each runtime family has its
 * own: Quarkus REST (Vert.x, no servlet), servlet containers that show the servlet API to applications
 * (Payara, Open Liberty with the {@code servlet} feature, ...), and RESTEasy's own request where they do not
 * (Open Liberty with {@code restfulWS} alone).
 */
interface PeerAddress {

    String of(ContainerRequestContext ctx);

    /** The way that works for this request's runtime; chosen once, on the first request. */
    static PeerAddress forRuntime(ContainerRequestContext ctx) {
        if (QuarkusRest.PRESENT && QuarkusRest.handles(ctx)) {
            return QuarkusRest::peer;
        }
        if (ServletPeer.available()) {
            return new ServletPeer();
        }
        PeerAddress resteasy = ResteasyPeer.lookup(ctx);
        if (resteasy != null) {
            return resteasy;
        }
        System.getLogger("io.github.throttle").log(System.Logger.Level.WARNING, "Throttle cannot see client addresses on this runtime ("
                + ctx.getClass().getName() + ", no servlet API visible to the application): limits keyed by address"
                + " have no address to count. Make the servlet API visible (on Open Liberty: the servlet feature).");
        return c -> null;
    }
}
