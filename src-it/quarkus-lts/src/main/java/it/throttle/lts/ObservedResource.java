package it.throttle.lts;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/**
 * Throttled endpoints that only the metrics and health tests call, so that each bucket's counts are those of a
 * known sequence of calls.
 */
@Path("/lts")
@ApplicationScoped
public class ObservedResource {

    /** Bucket {@code lts-counted}. */
    @GET
    @Path("/counted")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, name = "lts-counted")
    public String counted() {
        return "counted";
    }

    /** No name: the bucket is {@code it.throttle.lts.ObservedResource#unnamed}. */
    @GET
    @Path("/unnamed")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    public String unnamed() {
        return "unnamed";
    }

    /** In report mode (application.properties): never refused; what enforce would refuse counts as would-deny. */
    @GET
    @Path("/reported")
    @Throttle(limit = 1, duration = 1, unit = ChronoUnit.HOURS, name = "lts-reported")
    public String reported() {
        return "reported";
    }

    /** A generous limit, for calls made while the store is down. */
    @GET
    @Path("/guarded")
    @Throttle(limit = 1000, duration = 1, unit = ChronoUnit.HOURS, name = "lts-guarded")
    public String guarded() {
        return "guarded";
    }

    /**
     * Six an hour per client, sliding by the minute: what each instance allows a client while Redis fails, with a
     * local share. Sliding, so that a test's calls stay counted together when it runs across the start of an hour.
     */
    @GET
    @Path("/local")
    @Throttle(limit = 6, duration = 60, precision = 1, unit = ChronoUnit.MINUTES, name = "lts-local")
    public String local() {
        return "local";
    }
}
