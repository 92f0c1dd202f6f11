package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/** Limits changed by MicroProfile Config (see microprofile-config.properties). */
@Path("/it/override")
@ApplicationScoped
public class OverrideResource {

    /** Overridden to 2. */
    @GET
    @Path("/limited")
    @Throttle(limit = 100, duration = 1, unit = ChronoUnit.HOURS)
    public String limited() {
        return "limited";
    }

    /** Switched off. */
    @GET
    @Path("/off")
    @Throttle(limit = 1, duration = 1, unit = ChronoUnit.HOURS)
    public String off() {
        return "off";
    }

    /** In report mode: never refused, no fields. */
    @GET
    @Path("/reported")
    @Throttle(limit = 1, duration = 1, unit = ChronoUnit.HOURS)
    public String reported() {
        return "reported";
    }

    /** The second limit overridden to 1 on its own. */
    @GET
    @Path("/indexed")
    @Throttle(limit = 50, duration = 1, unit = ChronoUnit.HOURS)
    @Throttle(limit = 60, duration = 1, unit = ChronoUnit.DAYS)
    public String indexed() {
        return "indexed";
    }
}
