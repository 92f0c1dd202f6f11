package bench.http;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

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

    /** {@code /open} with the two fields a throttled answer carries, as constants of the same length. */
    @GET
    @Path("fields")
    public Response fields() {
        return Response.ok("hello\n", MediaType.TEXT_PLAIN_TYPE)
                .header("RateLimit-Policy", "\"1s\";q=1000000;w=1, \"1m\";q=1000000000;w=60, \"1h\";q=1000000000;w=3600")
                .header("RateLimit", "\"1s\";r=999987;t=1, \"1m\";r=999999561;t=17, \"1h\";r=999993214;t=3557")
                .build();
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
