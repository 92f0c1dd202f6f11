package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/**
 * API-first code: every annotation on the interface (as generated from an OpenAPI document), the classes that
 * implement it carry only their {@code @Path}. Each implementing class counts in a bucket of its own.
 */
public interface ReportsApi {

    @GET
    @Path("/x")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    String x();

    /** One in flight per client; the implementation throws an exception no mapper handles. */
    @GET
    @Path("/fail")
    @Throttle(limit = 1, duration = 1, unit = ChronoUnit.HOURS, inFlight = true)
    String fail();
}
