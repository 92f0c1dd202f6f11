package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/** Class-level limit: each method its own bucket; a method's own annotation replaces it. */
@Path("/it/class")
@ApplicationScoped
@Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
public class ClassLevelResource {

    @GET
    @Path("/one")
    public String one() {
        return "one";
    }

    @GET
    @Path("/two")
    public String two() {
        return "two";
    }

    @GET
    @Path("/own")
    @Throttle(limit = 4, duration = 1, unit = ChronoUnit.HOURS)
    public String own() {
        return "own";
    }
}
