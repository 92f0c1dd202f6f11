package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/** A base resource class declaring a limit that {@link OverridingResource} overrides without annotations. */
public abstract class LimitedBase {

    @GET
    @Path("/y")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    public String y() {
        return "base";
    }
}
