package io.github.throttle.jaxrs;

import jakarta.ws.rs.container.ContainerRequestContext;

/**
 * The address of the connection's peer. JAX-RS has no portable way to ask, so each runtime family has its
 * own: Quarkus REST (Vert.x, no servlet) and servlet containers (Payara, Open Liberty, ...).
 */
interface PeerAddress {

    String of(ContainerRequestContext ctx);

    /** The way that works for this request's runtime; chosen once, on the first request. */
    static PeerAddress forRuntime(ContainerRequestContext ctx) {
        if (QuarkusRest.PRESENT && QuarkusRest.handles(ctx)) {
            return QuarkusRest::peer;
        }
        return new ServletPeer();
    }
}
