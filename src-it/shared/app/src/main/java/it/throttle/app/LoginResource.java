package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Only failed logins use the quota: 5 an hour per client; successful ones give their weight back. */
@Path("/it/login")
@ApplicationScoped
public class LoginResource {

    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

    /** The body is the password; {@code secret} is right for every user. */
    @POST
    @Throttle(limit = 5, duration = 1, unit = ChronoUnit.HOURS, skipSuccessful = true)
    public Response login(@QueryParam("user") String user, String password) {
        attempts.computeIfAbsent(String.valueOf(user), u -> new AtomicInteger()).incrementAndGet();
        return "secret".equals(password) ? Response.ok("welcome " + user).build()
                : Response.status(Response.Status.UNAUTHORIZED).entity("wrong password").build();
    }

    /** How many login attempts of {@code user} reached the method. */
    @GET
    @Path("/attempts")
    public int attempts(@QueryParam("user") String user) {
        AtomicInteger n = attempts.get(String.valueOf(user));
        return n == null ? 0 : n.get();
    }
}
