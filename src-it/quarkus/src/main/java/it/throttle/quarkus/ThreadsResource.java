package it.throttle.quarkus;

import io.github.throttle.Caller;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each part of a throttled call runs: the key resolvers note the thread that decided (by caller), the
 * endpoints answer with the thread they ran on, and every answer of this class says in {@code X-Answered-On} the
 * thread its response filters ran on.
 */
@Path("/quarkus/threads")
public class ThreadsResource {

    /** The thread the last decision for each caller ({@code X-Caller}) ran its key resolver on. */
    static final Map<String, String> DECIDED_ON = new ConcurrentHashMap<>();

    /** A plain resource method: Quarkus REST runs it on a worker thread. */
    @GET
    @Path("/blocking")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = NotingKey.class)
    public String blocking() {
        return "ran on " + Thread.currentThread().getName();
    }

    /** The same on the event loop. */
    @GET
    @Path("/non-blocking")
    @NonBlocking
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = NotingKey.class)
    public String nonBlocking() {
        return "ran on " + Thread.currentThread().getName();
    }

    /** A resource method whose key resolver the application marks blocking. */
    @GET
    @Path("/blocking-key")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = BlockingKey.class)
    public String blockingKey() {
        return "ran on " + Thread.currentThread().getName();
    }

    /** Not throttled, on a worker thread. */
    @GET
    @Path("/unthrottled")
    public String unthrottled() {
        return "ran on " + Thread.currentThread().getName();
    }

    /** The thread the last decision for {@code caller} ran its key resolver on. */
    @GET
    @Path("/decided-on")
    @NonBlocking
    public String decidedOn(@jakarta.ws.rs.QueryParam("caller") String caller) {
        return DECIDED_ON.getOrDefault(caller, "none");
    }

    /** The caller's {@code X-Caller} header, noting the thread it was resolved on. */
    public static class NotingKey implements ThrottleKey {
        @Override
        public Optional<String> identify(Caller caller) {
            Optional<String> id = caller.header("X-Caller");
            id.ifPresent(c -> DECIDED_ON.put(c, Thread.currentThread().getName()));
            return id;
        }
    }

    /** The same, marked blocking: it must not run on an event loop. */
    @Blocking
    public static class BlockingKey extends NotingKey {
    }

    /** Tells on which thread the response filters of this class's answers ran. */
    @Provider
    public static class AnsweredOn implements ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            if (request.getUriInfo().getPath().startsWith("/quarkus/threads")) {
                response.getHeaders().putSingle("X-Answered-On", Thread.currentThread().getName());
            }
        }
    }
}
