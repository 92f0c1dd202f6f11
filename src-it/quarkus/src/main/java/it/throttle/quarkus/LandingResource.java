package it.throttle.quarkus;

import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Calls {@link LandingService} from a worker thread and from the event loop; each answer is {@code caller=<thread>
 * body=<thread>}, or for a refusal {@code caller=<thread> refused-on=<thread>} (where the application's callback ran).
 */
@Path("/quarkus/landing")
public class LandingResource {

    @Inject
    LandingService service;

    /** The caller puts its thread's name in the logging context (MDC); the body reads it back. */
    @GET
    @Path("/stage-worker")
    public String stageOnWorker() throws Exception {
        String caller = Thread.currentThread().getName();
        org.jboss.logging.MDC.put("landing", caller);
        try {
            return "caller=" + caller + " body=" + service.stage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } finally {
            org.jboss.logging.MDC.remove("landing");
        }
    }

    @GET
    @Path("/stage-loop")
    @NonBlocking
    public Uni<String> stageOnEventLoop() {
        String caller = Thread.currentThread().getName();
        org.jboss.logging.MDC.put("landing", caller);
        return Uni.createFrom().completionStage(service.stage()).map(body -> "caller=" + caller + " body=" + body);
    }

    @GET
    @Path("/uni-worker")
    public String uniOnWorker() {
        String caller = Thread.currentThread().getName();
        return "caller=" + caller + " body=" + service.uni().await().atMost(Duration.ofSeconds(60));
    }

    @GET
    @Path("/uni-loop")
    @NonBlocking
    public Uni<String> uniOnEventLoop() {
        String caller = Thread.currentThread().getName();
        return service.uni().map(body -> "caller=" + caller + " body=" + body);
    }

    @GET
    @Path("/scarce-worker")
    public String scarceOnWorker() throws Exception {
        String caller = Thread.currentThread().getName();
        return "caller=" + caller + " " + service.scarce().handle((body, refused) -> refused == null ? "body=" + body
                : "refused-on=" + Thread.currentThread().getName()).toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
}
