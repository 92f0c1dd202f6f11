package it.throttle.app;

import jakarta.ws.rs.Path;

/** Implements {@link ReportsApi} with no annotation on its methods: the interface's limits apply. */
@Path("/it/iface")
public class ReportsResource implements ReportsApi {

    @Override
    public String x() {
        return "iface";
    }

    @Override
    public String fail() {
        throw new IllegalStateException("unmapped");
    }
}
