package bench.http;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/**
 * The same endpoint twice: {@code /open} unthrottled, {@code /throttled} limited per API key (wrk sends
 * 10,000 random keys) by the three limits of the README example, raised so that every call is allowed:
 * the figures are the cost of deciding, never of answering 429.
 */
@Path("/")
public class Hello {

    @GET
    @Path("open")
    public String open() {
        return "hello\n";
    }

    @GET
    @Path("throttled")
    @Throttle(limit = 1_000_000, duration = 1, key = ThrottleKey.ApiKey.class)
    @Throttle(limit = 1_000_000_000, duration = 60, key = ThrottleKey.ApiKey.class)
    @Throttle(limit = 1_000_000_000, duration = 3600, precision = 60, key = ThrottleKey.ApiKey.class)
    public String throttled() {
        return "hello\n";
    }
}
