package it.throttle.app;

import jakarta.ws.rs.Path;

/**
 * A second class implementing {@link ReportsApi}: its own bucket, and its own configuration keys
 * ({@code it.throttle.app.OtherReportsResource/x/Throttle/limit=3} in microprofile-config.properties).
 */
@Path("/it/iface-other")
public class OtherReportsResource implements ReportsApi {

    @Override
    public String x() {
        return "other";
    }

    @Override
    public String fail() {
        throw new IllegalStateException("unmapped");
    }
}
