package it.throttle.app;

import io.github.throttle.CallDecision;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;

import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Throttled endpoints exercised by the scenarios on every runtime. */
@Path("/it")
@ApplicationScoped
public class LimitedResource {

    @Inject
    LimitedService service;

    @Inject
    ExportService exports;

    @Inject
    RequestedPlan requested;

    @Inject
    CallDecision call;

    @GET
    @Path("/open")
    public String open() {
        return "open";
    }

    /** A path parameter with a regular expression (the OpenAPI document writes it {@code {id}}). */
    @GET
    @Path("/items/{id: [0-9]+}")
    @Throttle(limit = 5, duration = 1, unit = ChronoUnit.HOURS)
    public String item(@PathParam("id") String id) {
        return "item " + id;
    }

    @GET
    @Path("/fixed")
    @Throttle(limit = 3, duration = 1, unit = ChronoUnit.HOURS)
    public String fixed() {
        return "fixed";
    }

    /** 2 per 5 s sliding by 1 s (short) and 4 per hour (long). */
    @GET
    @Path("/multi")
    @Throttle(limit = 2, duration = 5, precision = 1)
    @Throttle(limit = 4, duration = 60, precision = 1, unit = ChronoUnit.MINUTES)
    public String multi() {
        return "multi";
    }

    @GET
    @Path("/weighted")
    @Throttle(limit = 10, duration = 1, unit = ChronoUnit.HOURS, weight = 4)
    public String weighted() {
        return "weighted";
    }

    /** Each call weighs its {@code size}: 10 an hour. */
    @GET
    @Path("/sized")
    @Throttle(limit = 10, duration = 1, unit = ChronoUnit.HOURS, weigher = QuerySize.class)
    public String sized() {
        return "sized";
    }

    @GET
    @Path("/shared-a")
    @Throttle(limit = 3, duration = 1, unit = ChronoUnit.HOURS, name = "shared")
    public String sharedA() {
        return "a";
    }

    @GET
    @Path("/shared-b")
    @Throttle(limit = 3, duration = 1, unit = ChronoUnit.HOURS, name = "shared")
    public String sharedB() {
        return "b";
    }

    @GET
    @Path("/by-user")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = ThrottleKey.User.class)
    public String byUser(@Context SecurityContext security) {
        return String.valueOf(security.getUserPrincipal());
    }

    @GET
    @Path("/by-default")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    public String byDefault() {
        return "default";
    }

    @GET
    @Path("/by-address")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = ThrottleKey.ClientAddress.class)
    public String byAddress() {
        return "address";
    }

    @GET
    @Path("/by-header")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = ThrottleKey.ApiKey.class)
    public String byHeader() {
        return "header";
    }

    @GET
    @Path("/by-address-and-user")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = {ThrottleKey.ClientAddress.class, ThrottleKey.User.class})
    public String both() {
        return "both";
    }

    @GET
    @Path("/by-tenant")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = TenantKey.class)
    public String byTenant() {
        return "tenant";
    }

    /** Read before the entity? The 429 must come without the body being consumed. */
    @POST
    @Path("/upload")
    @Throttle(limit = 1, duration = 1, unit = ChronoUnit.HOURS)
    public String upload(String body) {
        return "read " + body.length();
    }

    @GET
    @Path("/async")
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    public CompletionStage<String> async() {
        return CompletableFuture.supplyAsync(() -> "async");
    }

    @GET
    @Path("/service")
    public String service() {
        return service.work();
    }

    @GET
    @Path("/service/reported")
    public String serviceReported() {
        return service.reported();
    }

    /** Unthrottled itself: the bean it calls is, on the plan of the request's {@code X-Plan}. */
    @GET
    @Path("/export")
    public String export(@HeaderParam("X-Plan") String plan) {
        requested.set(plan);
        String done = exports.export();
        return done + " " + PlansResource.describe(call.get());
    }
}
