package it.throttle.servlet;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Calls {@link Ledger}'s throttled asynchronous methods from a request thread, as a servlet application does. */
@Path("/servlet/async")
public class AsyncBodyResource {

    @Inject
    Ledger ledger;

    /** {@code caller=<thread> tx=... on=<thread>}. */
    @GET
    @Path("/tx")
    public String tx() throws InterruptedException, ExecutionException, TimeoutException {
        String caller = Thread.currentThread().getName();
        return "caller=" + caller + " " + ledger.record().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    /** Answers once the test releases the body of this call ({@link #release}). */
    @GET
    @Path("/held")
    public String held(@QueryParam("id") String id) throws InterruptedException, ExecutionException, TimeoutException {
        String caller = Thread.currentThread().getName();
        return "caller=" + caller + " " + ledger.held(id).toCompletableFuture().get(90, TimeUnit.SECONDS);
    }

    /** {@code true} once the body of {@code held(id)} runs (waiting up to 30 s for it). */
    @GET
    @Path("/started")
    public String started(@QueryParam("id") String id) throws InterruptedException {
        return Boolean.toString(ledger.started(id, 30));
    }

    @POST
    @Path("/release")
    public void release(@QueryParam("id") String id) {
        ledger.release(id);
    }
}
