package it.throttle.app;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;

import java.security.Principal;

/** Test authentication: {@code X-Test-User: alice} makes the request authenticated as alice. */
@Provider
@PreMatching
public class TestUserFilter implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext ctx) {
        String user = ctx.getHeaderString("X-Test-User");
        if (user == null || user.isEmpty()) {
            return;
        }
        Principal p = () -> user;
        SecurityContext previous = ctx.getSecurityContext();
        ctx.setSecurityContext(new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return p;
            }

            @Override
            public boolean isUserInRole(String role) {
                return false;
            }

            @Override
            public boolean isSecure() {
                return previous != null && previous.isSecure();
            }

            @Override
            public String getAuthenticationScheme() {
                return "TEST";
            }
        });
    }
}
