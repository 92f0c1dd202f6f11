package io.github.throttle.jaxrs;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;

/** The peer address from the servlet request, through the container's built-in request-scoped CDI bean. */
final class ServletPeer implements PeerAddress {

    private static final boolean AVAILABLE = available("jakarta.servlet.http.HttpServletRequest");

    private final Instance<HttpServletRequest> request = CDI.current().select(HttpServletRequest.class);

    /** Whether the servlet API is visible to this library (on Open Liberty only with the servlet feature). */
    static boolean available() {
        return AVAILABLE;
    }

    private static boolean available(String type) {
        try {
            Class.forName(type, false, ServletPeer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    public String of(ContainerRequestContext ctx) {
        String addr = request.get().getRemoteAddr();
        return addr == null ? null : ForwardedFor.address(addr);
    }
}
