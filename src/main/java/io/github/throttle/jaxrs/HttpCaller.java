package io.github.throttle.jaxrs;

import io.github.throttle.Caller;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.SecurityContext;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Optional;

/** A JAX-RS request as seen by identity resolvers; the client address is worked out only if asked for. */
final class HttpCaller implements Caller {

    private final ContainerRequestContext ctx;
    private final Method method;
    private final PeerAddress peer;
    private final ForwardedFor forwarded;
    private String client;

    HttpCaller(ContainerRequestContext ctx, Method method, PeerAddress peer, ForwardedFor forwarded) {
        this.ctx = ctx;
        this.method = method;
        this.peer = peer;
        this.forwarded = forwarded;
    }

    @Override
    public Optional<String> clientAddress() {
        if (client == null) {
            String p = peer.of(ctx);
            if (forwarded.believes(p)) {
                var h = ctx.getHeaders();
                p = forwarded.behindTrusted(p, h.get("Forwarded"), h.get("X-Forwarded-For"));
            }
            // the headers are not even looked at for other peers (Quarkus REST copies them all on first look)
            client = p == null ? "" : p;
        }
        return client.isEmpty() ? Optional.empty() : Optional.of(client);
    }

    @Override
    public Optional<Principal> principal() {
        SecurityContext sc = ctx.getSecurityContext();
        return sc == null ? Optional.empty() : Optional.ofNullable(sc.getUserPrincipal());
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(QuarkusRest.PRESENT ? QuarkusRest.header(ctx, name) : ctx.getHeaders().getFirst(name));
    }

    @Override
    public Optional<String> queryParameter(String name) {
        return Optional.ofNullable(ctx.getUriInfo().getQueryParameters().getFirst(name));
    }

    @Override
    public Method method() {
        return method;
    }
}
