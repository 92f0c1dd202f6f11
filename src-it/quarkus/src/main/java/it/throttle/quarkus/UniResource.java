package it.throttle.quarkus;

import io.github.throttle.Throttle;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;

/** A reactive endpoint: it runs on the event loop, which Throttle must never block. */
@Path("/quarkus")
public class UniResource {

    @GET
    @Path("/uni")
    @Throttle(limit = 3, duration = 1, unit = ChronoUnit.HOURS)
    public Uni<String> uni() {
        return Uni.createFrom().item(() -> "uni:" + Thread.currentThread().getName());
    }

    @GET
    @Path("/ping")
    public Uni<String> ping() {
        return Uni.createFrom().item("pong");
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
