package it.throttle.lts;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/** Throttled endpoints that only callers in role {@code user} may call, two calls an hour. */
@Path("/secured")
public class SecuredResource {

    /** Counted by client address: every test call comes from the same one. */
    @GET
    @RolesAllowed("user")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = ThrottleKey.ClientAddress.class)
    public String read() {
        return "read on " + Thread.currentThread().getName();
    }

    /** Counted by the caller's principal, as Quarkus security established it. */
    @GET
    @Path("/mine")
    @RolesAllowed("user")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    public String mine() {
        return "mine on " + Thread.currentThread().getName();
    }
}
