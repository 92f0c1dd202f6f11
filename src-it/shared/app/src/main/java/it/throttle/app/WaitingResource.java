package it.throttle.app;

import io.github.throttle.CallDecision;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/** A partner-style endpoint whose callers wait for their turn: 2 calls per 2 s, each waiting up to 2.5 s. */
@Path("/it/wait")
@ApplicationScoped
public class WaitingResource {

    @Inject
    CallDecision call;

    /** How long this call waited for its turn, in milliseconds. */
    @GET
    @Throttle(limit = 2, duration = 2, unit = ChronoUnit.SECONDS, maxWaitMillis = 2500)
    public String partner() {
        return Long.toString(call.get().map(Decision::waitedMillis).orElse(-1L));
    }
}
