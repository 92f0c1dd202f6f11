package io.github.throttle.jaxrs;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;

/** The peer address from the servlet request, through the container's built-in request-scoped CDI bean. */
final class ServletPeer implements PeerAddress {

    private final Instance<HttpServletRequest> request = CDI.current().select(HttpServletRequest.class);

    @Override
    public String of(ContainerRequestContext ctx) {
        String addr = request.get().getRemoteAddr();
        return addr == null ? null : ForwardedFor.address(addr);
    }
}
