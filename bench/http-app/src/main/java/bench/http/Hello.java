package bench.http;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.faulttolerance.api.RateLimit;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/**
 * The same endpoint several ways: {@code /open} unthrottled, {@code /fields} writing the fields of an allowed call
 * without deciding anything, {@code /throttled} limited per API key (wrk sends
 * 10,000 random keys, or one) by the three limits of the README example, raised so that every call is
 * allowed: the figures are the cost of deciding, never of answering 429; {@code -eventloop} runs those three on the
 * event loop instead of a worker thread. {@code /everyone} and {@code /ft}
 * hold one quota per method, by Throttle and by SmallRye Fault Tolerance; {@code /flood} is one limit a
 * single API key is far over; {@code /hot} is one quota for everyone that several instances exhaust together.
 * {@link Bucket4jResource} is {@code /throttled} by Bucket4j.
 */
@Path("/")
public class Hello {

    @GET
    @Path("open")
    public String open() {
        return "hello\n";
    }

    /** {@code /open} answering the fields {@code /throttled} writes on an allowed call, as constants ({@link FieldsOnlyFilter}). */
    @GET
    @Path("fields")
    @FieldsOnly
    public String fields() {
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

    /** One limit, a minute by seconds: the shape of a decision's cost figures. */
    @GET
    @Path("single")
    @Throttle(limit = 1_000_000_000, duration = 60, precision = 1, key = ThrottleKey.ApiKey.class)
    public String single() {
        return "hello\n";
    }

    /** {@code /open} on the event loop: Quarkus REST runs a {@code @NonBlocking} method there, no worker thread. */
    @GET
    @Path("open-eventloop")
    @NonBlocking
    public String openEventLoop() {
        return "hello\n";
    }

    /** {@code /fields} on the event loop. */
    @GET
    @Path("fields-eventloop")
    @NonBlocking
    @FieldsOnly
    public String fieldsEventLoop() {
        return "hello\n";
    }

    /** {@code /throttled} on the event loop: the request is suspended while Redis decides. */
    @GET
    @Path("throttled-eventloop")
    @NonBlocking
    @Throttle(limit = 1_000_000, duration = 1, key = ThrottleKey.ApiKey.class)
    @Throttle(limit = 1_000_000_000, duration = 60, key = ThrottleKey.ApiKey.class)
    @Throttle(limit = 1_000_000_000, duration = 3600, precision = 60, key = ThrottleKey.ApiKey.class)
    public String throttledEventLoop() {
        return "hello\n";
    }

    /** One quota for the method, every caller in it: the shape of {@code /ft}. */
    @GET
    @Path("everyone")
    @Throttle(limit = 1_000_000_000, duration = 1, key = ThrottleKey.Everyone.class)
    public String everyone() {
        return "hello\n";
    }

    /** SmallRye Fault Tolerance's rate limit: one quota per method, a fixed window of 1 s. */
    @GET
    @Path("ft")
    @RateLimit(value = 1_000_000_000, window = 1, windowUnit = ChronoUnit.SECONDS)
    public String ft() {
        return "hello\n";
    }

    /** 8,000 per fixed window of 10 s for everyone: one hot key that the instances of the leases section share. */
    @GET
    @Path("hot")
    @Throttle(limit = 8_000, duration = 10, key = ThrottleKey.Everyone.class)
    public String hot() {
        return "hello\n";
    }

    /** 10 per hour per API key: wrk's one key is denied from its eleventh call on. */
    @GET
    @Path("flood")
    @Throttle(limit = 10, duration = 3600, key = ThrottleKey.ApiKey.class)
    public String flood() {
        return "hello\n";
    }
}
