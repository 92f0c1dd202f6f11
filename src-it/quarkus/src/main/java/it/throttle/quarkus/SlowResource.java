package it.throttle.quarkus;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Calls limited in calls in progress, per API key, that work until the test finishes them ({@code POST
 * /finish?id=}), with the times each worked (this instance's clock), for the tests that run several instances on
 * one Redis.
 */
@Path("/quarkus/slow")
public class SlowResource {

    private static final List<String> WORKED = new CopyOnWriteArrayList<>();
    private static final AtomicInteger IN_PROGRESS = new AtomicInteger();
    private static final ConcurrentHashMap<String, CountDownLatch> FINISH = new ConcurrentHashMap<>();

    @GET
    @Throttle(limit = 2, duration = 20, unit = ChronoUnit.SECONDS, inFlight = true, name = "slow", key = ThrottleKey.ApiKey.class)
    public String work(@QueryParam("id") String id, @QueryParam("key") String key) throws InterruptedException {
        long started = System.currentTimeMillis();
        IN_PROGRESS.incrementAndGet();
        try {
            if (!finish(id).await(3, TimeUnit.MINUTES)) {
                throw new IllegalStateException("call " + id + " was never finished");
            }
        } finally {
            IN_PROGRESS.decrementAndGet();
            WORKED.add(key + " " + started + " " + System.currentTimeMillis());
        }
        return "worked";
    }

    /** Ends call {@code id} (or lets it through at once, if it has not come yet). */
    @POST
    @Path("/finish")
    public String finished(@QueryParam("id") String id) {
        finish(id).countDown();
        return "finished " + id;
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

    private static CountDownLatch finish(String id) {
        return FINISH.computeIfAbsent(id, x -> new CountDownLatch(1));
    }
}
