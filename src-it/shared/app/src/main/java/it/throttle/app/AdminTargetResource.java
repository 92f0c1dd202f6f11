package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/** A bucket of its own that only the admin API scenarios change: 3 calls an hour, 10 on plan {@code pro}. */
@Path("/it/admin-target")
@ApplicationScoped
public class AdminTargetResource {

    public static final String BUCKET = "admin-target";

    @GET
    @Throttle(name = BUCKET, limit = 3, duration = 1, unit = ChronoUnit.HOURS)
    @Throttle(name = BUCKET, limit = 10, duration = 1, unit = ChronoUnit.HOURS, plan = "pro")
    public String call() {
        return "admin-target";
    }
}
