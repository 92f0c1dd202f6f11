package bench.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * The two fields {@code /throttled} writes on an allowed call, as constants of realistic values and the same
 * length (its three limits, far from exhausted), written by a response filter as Throttle's own are: what the
 * fields cost the server and wrk, without deciding anything.
 */
@Provider
@FieldsOnly
public class FieldsOnlyFilter implements ContainerResponseFilter {

    static final String POLICY = "\"1s\";q=1000000;w=1, \"1m\";q=1000000000;w=60, \"1h\";q=1000000000;w=3600";
    static final String STATE = "\"1s\";r=999987;t=1, \"1m\";r=999999561;t=17, \"1h\";r=999993214;t=3557";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        response.getHeaders().putSingle("RateLimit-Policy", POLICY);
        response.getHeaders().putSingle("RateLimit", STATE);
    }
}
