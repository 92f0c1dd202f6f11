package it.throttle.lts;

import io.github.throttle.Throttle;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/** The README's "Testing your application" endpoint: five logins a minute per caller. */
@Path("/login")
public class LoginResource {

    @POST
    @Throttle(limit = 5, duration = 1, unit = ChronoUnit.MINUTES)
    public String login() {
        return "welcome";
    }
}
