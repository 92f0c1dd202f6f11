package demo;

import io.github.throttle.Throttle;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import java.time.temporal.ChronoUnit;

@Path("/hello")
public class HelloResource {

    /** 5 calls per 10 seconds, fixed window. */
    @GET
    @Path("/fixed")
    @Throttle(limit = 5, duration = 10)
    public String fixed() {
        return "hello (fixed window)\n";
    }

    /** 3 per second and 10 per minute sliding by 10 seconds, checked together. */
    @GET
    @Path("/sliding")
    @Throttle(limit = 3, duration = 1)
    @Throttle(limit = 10, duration = 60, precision = 10)
    public String sliding() {
        return "hello (sliding window)\n";
    }

    /** An expensive call: each one costs 4 of 10 per minute. */
    @GET
    @Path("/report")
    @Throttle(limit = 10, duration = 1, unit = ChronoUnit.MINUTES, weight = 4)
    public String report(@QueryParam("q") String q) {
        return "report for " + q + "\n";
    }

    @GET
    @Path("/open")
    public String open() {
        return "not throttled\n";
    }
}
