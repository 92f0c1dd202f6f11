package it.throttle.app;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

/**
 * An application filter that rewrites a request header before Throttle sees it, as a gateway-facing
 * filter might: {@code X-Test-Key-From: k} becomes {@code X-API-Key: k}, replacing any sent.
 */
@Provider
@PreMatching
public class TestApiKeyFilter implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext ctx) {
        String key = ctx.getHeaderString("X-Test-Key-From");
        if (key != null && !key.isEmpty()) {
            ctx.getHeaders().putSingle("X-API-Key", key);
        }
    }
}
