package it.throttle.app;

import io.github.throttle.CallDecision;
import io.github.throttle.Decision;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

import java.util.Optional;

/**
 * Tells the caller its plan and what is left in {@code X-Quota}, read from the request property that holds the
 * call's decision: how any JAX-RS component of the application reaches it, on every runtime.
 */
@Provider
@QuotaShown
public class QuotaHeaderFilter implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object decision = request.getProperty(CallDecision.PROPERTY);
        response.getHeaders().putSingle("X-Quota", PlansResource.describe(Optional.ofNullable((Decision) decision)));
    }
}
