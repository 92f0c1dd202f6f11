package it.throttle.quarkus;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleAdmin;
import io.github.throttle.ThrottleKey;
import io.github.throttle.Throttler;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A throttled endpoint of its own bucket, and the {@link ThrottleAdmin} calls of the application as plain text, for
 * the tests that change limits on one instance and watch another.
 */
@Path("/quarkus/admin")
public class AdminProbeResource {

    static final String BUCKET = "admin-probe";

    @Inject
    ThrottleAdmin admin;

    @GET
    @Path("/limited")
    @Throttle(limit = 3, duration = 1, unit = ChronoUnit.HOURS, name = BUCKET, key = ThrottleKey.ApiKey.class)
    public String limited() {
        return "limited";
    }

    /** The limits in force here: {@code 3/3600000 overridden=false}. */
    @GET
    @Path("/limits")
    public String limits() {
        return admin.buckets().stream().filter(b -> b.bucket().equals(BUCKET) && b.plan().isEmpty())
                .map(b -> b.limits().stream().map(r -> r.limit() + "/" + r.window().toMillis()).collect(Collectors.joining(","))
                        + " overridden=" + b.overridden())
                .findFirst().orElse("none");
    }

    @PUT
    @Path("/limits")
    public String override(@QueryParam("limit") long limit) {
        admin.override(BUCKET, "", List.of(Throttler.Rate.of(limit, Duration.ofHours(1))));
        return limits();
    }

    @DELETE
    @Path("/limits")
    public String clearOverride() {
        admin.clearOverride(BUCKET, null);
        return limits();
    }

    @PUT
    @Path("/assignments")
    public String assign(@QueryParam("identity") String identity, @QueryParam("plan") String plan, @QueryParam("millis") long millis) {
        admin.assign(identity, plan, Duration.ofMillis(millis));
        return "assigned";
    }

    /**
     * The live assignments here: {@code identity=plan} pairs, each followed by {@code  until <ms since the epoch>}
     * when it ends.
     */
    @GET
    @Path("/assignments")
    public String assignments() {
        return admin.assignments().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().plan()
                + (e.getValue().until() == null ? "" : " until " + e.getValue().until().toEpochMilli())).collect(Collectors.joining(","));
    }

    /** {@code used/limit} of each limit. */
    @GET
    @Path("/usage")
    public String usage(@QueryParam("identity") String identity) {
        return admin.usage(BUCKET, null, identity).stream().map(u -> u.used() + "/" + u.limit()).collect(Collectors.joining(","));
    }

    @DELETE
    @Path("/usage")
    public String reset(@QueryParam("identity") String identity) {
        admin.reset(BUCKET, identity);
        return "reset";
    }

    /** {@code identity=denied} pairs, most first. */
    @GET
    @Path("/top")
    public String top(@QueryParam("n") int n) {
        return admin.topDenied(BUCKET, n).stream().map(d -> d.identity() + "=" + d.denied()).collect(Collectors.joining(","));
    }
}
