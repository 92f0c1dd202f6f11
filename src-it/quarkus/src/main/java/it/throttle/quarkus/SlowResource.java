package it.throttle.quarkus;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Slow calls limited in calls in progress, per API key, with the times each call worked (this instance's clock)
 * for the tests that run several instances on one Redis.
 */
@Path("/quarkus/slow")
public class SlowResource {

    private static final List<String> WORKED = new CopyOnWriteArrayList<>();
    private static final AtomicInteger IN_PROGRESS = new AtomicInteger();

    @GET
    @Throttle(limit = 2, duration = 20, unit = ChronoUnit.SECONDS, inFlight = true, name = "slow", key = ThrottleKey.ApiKey.class)
    public String work(@QueryParam("ms") long ms, @QueryParam("key") String key) throws InterruptedException {
        long started = System.currentTimeMillis();
        IN_PROGRESS.incrementAndGet();
        try {
            Thread.sleep(ms);
        } finally {
            IN_PROGRESS.decrementAndGet();
            WORKED.add(key + " " + started + " " + System.currentTimeMillis());
        }
        return "worked";
    }

    /** The calls that worked here: one line each, {@code <key> <started> <ended>} in milliseconds. */
    @GET
    @Path("/worked")
    public String worked() {
        return WORKED.stream().collect(Collectors.joining("\n"));
    }

    /** How many calls work here now. */
    @GET
    @Path("/in-progress")
    public String inProgress() {
        return Integer.toString(IN_PROGRESS.get());
    }
}
