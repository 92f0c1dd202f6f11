package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

import java.nio.charset.StandardCharsets;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Endpoints limited in calls in progress. A call (named by the id its client gives) works until the test
 * finishes it ({@code POST /finish?id=}), so the test knows exactly which calls are in progress;
 * {@code /started?id=} answers once that call has started working.
 */
@Path("/it/in-flight")
@ApplicationScoped
public class InFlightResource {

    private static final ConcurrentHashMap<String, CountDownLatch> STARTED = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, CountDownLatch> FINISH = new ConcurrentHashMap<>();

    @GET
    @Path("/work")
    @Throttle(limit = 100, duration = 10, unit = ChronoUnit.MINUTES)
    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public String work(@QueryParam("id") String id) throws InterruptedException {
        working(id);
        return "worked " + id;
    }

    /** The body is streamed: the call is in progress until its last byte is written. */
    @GET
    @Path("/stream")
    @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public Response stream(@QueryParam("id") String id) {
        // a Response, not a StreamingOutput return type: OpenAPI scanners find no schema for the latter
        StreamingOutput body = out -> {
            out.write("first part\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            try {
                working(id);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            out.write("last part\n".getBytes(StandardCharsets.UTF_8));
        };
        return Response.ok(body, MediaType.TEXT_PLAIN_TYPE).build();
    }

    /** Answers later: the call is in progress until its stage completes and its response is written. */
    @GET
    @Path("/later")
    @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public CompletionStage<String> later(@QueryParam("id") String id) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                working(id);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return "worked later " + id;
        });
    }

    /** Fails with an exception the application's {@link RefusedMapper} answers (409). */
    @GET
    @Path("/refuse")
    @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public String refuse() {
        throw new Refused("not today");
    }

    /** A failure the application maps to a response of its own. */
    public static class Refused extends RuntimeException {
        public Refused(String message) {
            super(message);
        }
    }

    /**
     * Fails with an exception no mapper of the application handles: the runtime answers 500 (the servlet runtimes
     * also log an error, so only the Quarkus suites call it).
     */
    @GET
    @Path("/fail")
    @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public String fail() {
        throw new IllegalStateException("the work failed");
    }

    @POST
    @Path("/finish")
    public String finish(@QueryParam("id") String id) {
        latch(FINISH, id).countDown();
        return "finished " + id;
    }

    @GET
    @Path("/started")
    public String started(@QueryParam("id") String id) throws InterruptedException {
        if (!latch(STARTED, id).await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("call " + id + " did not start working");
        }
        return "started " + id;
    }

    /** Whether call {@code id} has started working, answered at once. */
    @GET
    @Path("/has-started")
    public String hasStarted(@QueryParam("id") String id) {
        return Boolean.toString(latch(STARTED, id).getCount() == 0);
    }

    private static void working(String id) throws InterruptedException {
        latch(STARTED, id).countDown();
        if (!latch(FINISH, id).await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("call " + id + " was never finished");
        }
    }

    private static CountDownLatch latch(ConcurrentHashMap<String, CountDownLatch> latches, String id) {
        return latches.computeIfAbsent(id, x -> new CountDownLatch(1));
    }
}
