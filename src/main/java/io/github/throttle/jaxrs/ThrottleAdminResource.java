package io.github.throttle.jaxrs;

import io.github.throttle.ThrottleAdmin;
import io.github.throttle.config.PlanLists;
import io.github.throttle.Throttler;
import io.github.throttle.config.Durations;
import io.github.throttle.config.RateText;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.fleet.AdminBounds;
import io.github.throttle.limiter.Limiter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The admin HTTP API at {@code throttle-admin} under the application's JAX-RS path: {@link ThrottleAdmin} over
 * HTTP. Off unless {@code throttle.admin.enabled=true}, and then it answers {@code 404} as if absent; never in the
 * OpenAPI document; never throttled (it has no {@code @Throttle}). Every request needs the role
 * {@code throttle.admin.role}: unauthenticated {@code 401}, without the role {@code 403}. Bad parameters are
 * {@code 400} problems naming the parameter, and nothing changes. Answers are JSON written here, so the
 * application needs no JSON provider. Every change is logged at INFO with the principal that made it.
 */
@Path("throttle-admin")
@ApplicationScoped
public class ThrottleAdminResource {

    /** Where {@code identity} may come instead of the query, to keep API keys out of access logs. */
    public static final String IDENTITY_HEADER = "Throttle-Identity";

    private static final String JSON = "application/json";

    @Inject
    ThrottleAdmin admin;

    @Inject
    Limiter limiter;

    /** {@code throttle.admin.*}, from the settings read at start-up; looked up on the first request. */
    private volatile ThrottleSettings settings;

    public ThrottleAdminResource() {
    }

    ThrottleAdminResource(ThrottleAdmin admin, ThrottleSettings settings) {
        this.admin = admin;
        this.settings = settings;
    }

    @GET
    @Path("buckets")
    @Operation(hidden = true)
    public Response buckets(@Context SecurityContext security) {
        return read(security, () -> {
            JsonText json = new JsonText().array();
            for (ThrottleAdmin.BucketLimits bucket : admin.buckets()) {
                for (Throttler.Rate rate : bucket.limits()) {
                    long window = rate.window().toMillis();
                    json.object().member("bucket", bucket.bucket()).member("plan", PlanLists.shown(bucket.plan()))
                            .member("limit", rate.limit()).member("windowMillis", window)
                            .member("precisionMillis", rate.precision() == null ? window : rate.precision().toMillis())
                            .member("overridden", bucket.overridden()).end('}');
                }
            }
            return json.end(']');
        });
    }

    @PUT
    @Path("limits")
    @Operation(hidden = true)
    public Response override(@Context SecurityContext security, @QueryParam("bucket") String bucket, @QueryParam("plan") String plan,
                             @QueryParam("rate") List<String> rates) {
        return change(security, () -> {
            String b = AdminParameters.required("bucket", bucket);
            String p = PlanLists.limitsKey(plan);
            if (rates == null || rates.isEmpty()) {
                throw new AdminParameters.BadParameter("rate", "at least one is needed, as limit/window[/precision] (e.g. rate=100/1m&rate=1000/1h/1m)");
            }
            List<Throttler.Rate> limits = new ArrayList<>(rates.size());
            for (String rate : rates) {
                limits.add(AdminParameters.parse("rate", rate, RateText::parse));
            }
            admin.override(b, p, AdminBounds.rates("rate", limits));
        });
    }

    @DELETE
    @Path("limits")
    @Operation(hidden = true)
    public Response clearOverride(@Context SecurityContext security, @QueryParam("bucket") String bucket, @QueryParam("plan") String plan) {
        return change(security, () -> {
            String b = AdminParameters.required("bucket", bucket);
            String p = PlanLists.limitsKey(plan);
            admin.clearOverride(b, p);
        });
    }

    @GET
    @Path("usage")
    @Operation(hidden = true)
    public Response usage(@Context SecurityContext security, @QueryParam("bucket") String bucket, @QueryParam("plan") String plan,
                          @QueryParam("identity") String identity, @HeaderParam(IDENTITY_HEADER) String identityHeader) {
        return read(security, () -> {
            String b = AdminParameters.required("bucket", bucket);
            String id = AdminParameters.identity(identity, identityHeader);
            String p = plan == null || plan.isEmpty() ? null : PlanLists.limitsKey(plan);
            List<ThrottleAdmin.Usage> usage = admin.usage(b, p, id);
            JsonText json = new JsonText().object().member("bucket", b).member("identity", id)
                    .member("plan", p == null ? null : PlanLists.shown(p)).name("limits").array();
            for (ThrottleAdmin.Usage u : usage) {
                json.object().member("policy", u.policy()).member("limit", u.limit()).member("used", u.used())
                        .member("remaining", u.remaining()).member("resetSeconds", RateLimitFields.secondsUp(u.resetMillis())).end('}');
            }
            return json.end(']').end('}');
        });
    }

    @DELETE
    @Path("usage")
    @Operation(hidden = true)
    public Response reset(@Context SecurityContext security, @QueryParam("bucket") String bucket, @QueryParam("identity") String identity,
                          @HeaderParam(IDENTITY_HEADER) String identityHeader) {
        return change(security, () -> {
            String b = AdminParameters.required("bucket", bucket);
            String id = AdminParameters.identity(identity, identityHeader);
            admin.reset(b, id);
        });
    }

    @PUT
    @Path("assignments")
    @Operation(hidden = true)
    public Response assign(@Context SecurityContext security, @QueryParam("identity") String identity,
                           @HeaderParam(IDENTITY_HEADER) String identityHeader, @QueryParam("plan") String plan,
                           @QueryParam("for") String duration) {
        return change(security, () -> {
            String id = AdminParameters.identity(identity, identityHeader);
            String p = AdminParameters.required("plan", plan);
            Duration d = duration == null || duration.isBlank() ? null : AdminParameters.parse("for", duration, Durations::parse);
            if (d != null && (d.isNegative() || d.isZero())) {
                throw new AdminParameters.BadParameter("for", "'" + duration + "' must be positive (leave it out for no end)");
            }
            admin.assign(id, p, AdminBounds.duration("for", d));
        });
    }

    @DELETE
    @Path("assignments")
    @Operation(hidden = true)
    public Response unassign(@Context SecurityContext security, @QueryParam("identity") String identity,
                             @HeaderParam(IDENTITY_HEADER) String identityHeader) {
        return change(security, () -> {
            String id = AdminParameters.identity(identity, identityHeader);
            admin.unassign(id);
        });
    }

    @GET
    @Path("assignments")
    @Operation(hidden = true)
    public Response assignments(@Context SecurityContext security) {
        return read(security, () -> {
            JsonText json = new JsonText().array();
            for (Map.Entry<String, ThrottleAdmin.Assignment> a : new TreeMap<>(admin.assignments()).entrySet()) {
                Instant until = a.getValue().until();
                json.object().member("identity", a.getKey()).member("plan", a.getValue().plan())
                        .member("until", until == null ? null : until.toString()).end('}');
            }
            return json.end(']');
        });
    }

    @GET
    @Path("top")
    @Operation(hidden = true)
    public Response top(@Context SecurityContext security, @QueryParam("bucket") String bucket, @QueryParam("n") String n) {
        return read(security, () -> {
            String b = AdminParameters.required("bucket", bucket);
            int count = n == null || n.isBlank() ? 10 : AdminParameters.parse("n", n, AdminParameters::count);
            JsonText json = new JsonText().array();
            for (ThrottleAdmin.Denied d : admin.topDenied(b, count)) {
                json.object().member("identity", d.identity()).member("denied", d.denied()).end('}');
            }
            return json.end(']');
        });
    }

    /** What a request does once admitted. */
    @FunctionalInterface
    private interface Work<T> {
        T run();
    }

    /** A change a request makes once admitted; the limiter logs it with the caller's principal. */
    @FunctionalInterface
    private interface Change {
        void run();
    }

    private Response read(SecurityContext security, Work<JsonText> work) {
        return answer(security, () -> Response.ok(work.run().toString(), JSON).build());
    }

    private Response change(SecurityContext security, Change change) {
        return answer(security, () -> {
            change.run();
            return Response.noContent().build();
        });
    }

    private Response answer(SecurityContext security, Work<Response> work) {
        ThrottleSettings s = settings();
        if (!s.adminEnabled()) {
            // off: the same answer as a path no resource has
            throw new NotFoundException();
        }
        Principal principal = security == null ? null : security.getUserPrincipal();
        if (principal == null) {
            return RateLimitFields.problem(401, "Unauthorized", "The admin API needs an authenticated caller.").build();
        }
        if (!security.isUserInRole(s.adminRole())) {
            return RateLimitFields.problem(403, "Forbidden", "The admin API needs the role " + s.adminRole() + ".").build();
        }
        try {
            return work.run();
        } catch (IllegalArgumentException | AdminParameters.BadParameter e) {
            // the admin's own refusals name what is wrong first too: identity, plan, bucket, rate
            return RateLimitFields.problem(400, "Bad Request", e.getMessage()).build();
        } catch (IllegalStateException e) {
            return RateLimitFields.problem(503, "Service Unavailable", "The change could not be kept: " + e.getMessage()).build();
        }
    }

    private ThrottleSettings settings() {
        ThrottleSettings s = settings;
        if (s == null) {
            s = limiter.settings();
            settings = s;
        }
        return s;
    }
}
