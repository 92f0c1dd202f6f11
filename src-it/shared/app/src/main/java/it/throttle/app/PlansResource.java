package it.throttle.app;

import io.github.throttle.CallDecision;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A pricing table as annotations, for every method (each its own bucket): 3 calls an hour by default, 10 on plan
 * {@code pro}. Callers are put on plans by the {@code throttle.plans.*} lists (microprofile-config.properties) or by
 * {@link HeaderPlan}.
 */
@Path("/it/plans")
@ApplicationScoped
@Throttle(limit = 3, duration = 1, unit = ChronoUnit.HOURS)
@Throttle(limit = 10, duration = 1, unit = ChronoUnit.HOURS, plan = "pro")
public class PlansResource {

    @Inject
    CallDecision call;

    @GET
    @Path("/priced")
    public String priced() {
        return "priced";
    }

    /** The call's decision, injected: its plan and what is left. */
    @GET
    @Path("/quota")
    public String quota() {
        return describe(call.get());
    }

    /** The same, from an endpoint that does not return on the request's thread. */
    @GET
    @Path("/quota-async")
    public CompletionStage<String> quotaAsync() {
        String quota = describe(call.get());
        return CompletableFuture.supplyAsync(() -> quota);
    }

    /** The call's decision as the request property, which an application filter shows ({@link QuotaHeaderFilter}). */
    @GET
    @Path("/quota-header")
    @QuotaShown
    public String quotaHeader() {
        return "quota-header";
    }

    /** What a client is told of its quota: {@code plan=pro remaining=9}, or {@code no decision}. */
    public static String describe(Optional<Decision> decision) {
        return decision.map(d -> "plan=" + d.plan().orElse("default") + " remaining=" + d.remaining()).orElse("no decision");
    }
}
