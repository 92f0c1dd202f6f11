package it.throttle.quarkus;

import io.github.throttle.CallDecision;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.smallrye.mutiny.Uni;
import it.throttle.app.PlansResource;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Reactive endpoints: they run on the event loop, which Throttle must never block. */
@Path("/quarkus")
public class UniResource {

    /** Numbers the answers of {@link #waiting()} and {@link #ping()}, in the order they were made. */
    private static final AtomicLong ANSWERS = new AtomicLong();

    @Inject
    CallDecision call;

    @Inject
    ReportService reports;

    @GET
    @Path("/uni")
    @Throttle(limit = 3, duration = 1, unit = ChronoUnit.HOURS)
    public Uni<String> uni() {
        return Uni.createFrom().item(() -> "uni:" + Thread.currentThread().getName());
    }

    /** The pricing table of the shared application; the answer tells the call's plan and what is left. */
    @GET
    @Path("/plans")
    @Throttle(limit = 3, duration = 1, unit = ChronoUnit.HOURS)
    @Throttle(limit = 10, duration = 1, unit = ChronoUnit.HOURS, plan = "pro")
    public Uni<String> plans() {
        return Uni.createFrom().item(() -> PlansResource.describe(call.get()) + " on " + Thread.currentThread().getName());
    }

    /** Only failed logins use the quota, 2 an hour: the weight of a success is given back on the event loop. */
    @POST
    @Path("/login")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, skipSuccessful = true)
    public Uni<Response> login(String password) {
        return Uni.createFrom().item(() -> "secret".equals(password) ? Response.ok("welcome").build()
                : Response.status(Response.Status.UNAUTHORIZED).build());
    }

    /**
     * One call per 10 s by seconds, waiting up to 12 s: a second call waits for the first call's second to leave
     * the window. The answer tells what the store decided, {@code waited <ms> reset <ms> answer <n> on <thread>}: the
     * wait, the decision's reset (when the oldest weight counted leaves the window, from the moment the store decided)
     * and the number of this answer among those of this class.
     */
    @GET
    @Path("/uni-wait")
    @Throttle(limit = 1, duration = 10, precision = 1, unit = ChronoUnit.SECONDS, maxWaitMillis = 12_000)
    public Uni<String> waiting() {
        return Uni.createFrom().item(() -> {
            Decision d = call.get().orElseThrow();
            return "waited " + d.waitedMillis() + " reset " + d.resetMillis() + " answer " + ANSWERS.incrementAndGet()
                    + " on " + Thread.currentThread().getName();
        });
    }

    /** Not throttled itself: the bean it calls is, and its refusal becomes a 429. */
    @GET
    @Path("/bean-uni")
    public Uni<String> beanUni() {
        return reports.report();
    }

    /** {@code pong <n>}: the number of this answer among those of this class. */
    @GET
    @Path("/ping")
    public Uni<String> ping() {
        return Uni.createFrom().item(() -> "pong " + ANSWERS.incrementAndGet());
    }

    /** Room for a load test: decided on the event loop. */
    @GET
    @Path("/busy")
    @Throttle(limit = 1_000_000, duration = 1, unit = ChronoUnit.HOURS)
    public Uni<String> busy() {
        return Uni.createFrom().item("busy");
    }

    /** The same on a worker thread. */
    @GET
    @Path("/busy-worker")
    @Throttle(limit = 1_000_000, duration = 1, unit = ChronoUnit.HOURS)
    public String busyWorker() {
        return "busy";
    }
}
