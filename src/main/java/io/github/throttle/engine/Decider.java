package io.github.throttle.engine;

import io.github.throttle.Decision;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns store calls into {@link Decision}s: picks the clock, bounds every store call by the timeout, and
 * applies the failure policy. After a failure the store is not asked again for {@code openMillis}
 * (callers get the failure decision at once); then one call probes it. A failure episode is logged once
 * when it starts and once when it ends.
 */
public final class Decider {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final Store store;
    private final InstantSource clock;
    private final boolean clientTime;
    private final Duration timeout;
    private final boolean denyOnFailure;
    private final long openMillis;

    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile long openUntil = Long.MIN_VALUE;
    private volatile boolean failing;

    public Decider(Store store, InstantSource clock, boolean clientTime, Duration timeout, boolean denyOnFailure,
                   Duration openPeriod) {
        this.store = store;
        this.clock = clock;
        this.clientTime = clientTime;
        this.timeout = timeout;
        this.denyOnFailure = denyOnFailure;
        this.openMillis = openPeriod.toMillis();
    }

    /** The time to put in a {@link StoreCall}: the client clock, or -1 for the store's own clock. */
    public long now() {
        return clientTime ? clock.millis() : -1;
    }

    public Store store() {
        return store;
    }

    public Duration timeout() {
        return timeout;
    }

    /**
     * Decides a call. Never completes exceptionally because of the store: failures become the failure
     * decision ({@link Decision#unmetered()} or {@link Decision#unavailable(long)}).
     *
     * @param quotas the declared limits, indexed by {@link StoreCall#quota(int)}
     */
    public CompletionStage<Decision> decide(StoreCall call, Limit[] quotas) {
        boolean probe = false;
        if (failing) {
            // the clock is read only while failing: a healthy call has no use for it
            if (clock.millis() < openUntil || !probing.compareAndSet(false, true)) {
                return CompletableFuture.completedFuture(failure());
            }
            probe = true;
        }
        boolean wasProbe = probe;
        CompletableFuture<StoreReply> reply;
        try {
            reply = store.decide(call).toCompletableFuture();
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        StoreReply at = reply.isDone() && !reply.isCompletedExceptionally() ? reply.getNow(null) : null;
        if (at != null) {
            // answered already (the embedded store): no timer, no continuation
            if (wasProbe) {
                probing.set(false);
            }
            onSuccess();
            return CompletableFuture.completedFuture(decision(at, call, quotas));
        }
        return reply.orTimeout(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                .handle((r, e) -> {
                    if (wasProbe) {
                        probing.set(false);
                    }
                    if (e != null) {
                        onFailure(e);
                        return failure();
                    }
                    onSuccess();
                    return decision(r, call, quotas);
                });
    }

    /** Builds the decision: per declared limit, the figures of its most constrained identity. */
    public static Decision decision(StoreReply r, StoreCall call, Limit[] quotas) {
        int q = quotas.length;
        if (call.pairCount() == q && call.inQuotaOrder()) {
            // the usual call: one identity, each declared limit once; its figures are the decision's
            Decision.Quota[] list = new Decision.Quota[q];
            for (int p = 0; p < q; p++) {
                Limit l = quotas[p];
                list[p] = new Decision.Quota(l.policy(), l.limit(), l.durationMillis(), r.remaining(p), r.waitMillis(p),
                        r.violated(p));
            }
            return Decision.of(r.allowed(), List.of(list));
        }
        long[] remaining = new long[q];
        long[] wait = new long[q];
        boolean[] violated = new boolean[q];
        boolean[] seen = new boolean[q];
        for (int p = 0; p < call.pairCount(); p++) {
            int i = call.quota(p);
            long rem = r.remaining(p);
            long w = r.waitMillis(p);
            boolean v = r.violated(p);
            if (!seen[i]) {
                seen[i] = true;
                remaining[i] = rem;
                wait[i] = w;
                violated[i] = v;
                continue;
            }
            if (v && !violated[i]) {
                violated[i] = true;
                wait[i] = w;
            } else if (v) {
                wait[i] = Math.max(wait[i], w);
            } else if (!violated[i] && (rem < remaining[i] || (rem == remaining[i] && w > wait[i]))) {
                wait[i] = w;
            }
            remaining[i] = Math.min(remaining[i], rem);
        }
        List<Decision.Quota> list = new ArrayList<>(q);
        for (int i = 0; i < q; i++) {
            if (seen[i]) {
                Limit l = quotas[i];
                list.add(new Decision.Quota(l.policy(), l.limit(), l.durationMillis(), remaining[i], wait[i], violated[i]));
            }
        }
        return Decision.of(r.allowed(), list);
    }

    private Decision failure() {
        return denyOnFailure ? Decision.unavailable(Math.max(1000, openMillis)) : Decision.unmetered();
    }

    private void onFailure(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        openUntil = clock.millis() + openMillis;
        if (!failing) {
            failing = true;
            LOG.log(Level.WARNING, "Throttle: " + store.describe() + " failed ("
                    + (cause instanceof TimeoutException ? "no answer within " + timeout.toMillis() + " ms" : describe(cause))
                    + "); calls are " + (denyOnFailure ? "denied" : "allowed without counting") + " until it answers again");
        }
    }

    private void onSuccess() {
        if (failing) {
            failing = false;
            LOG.log(Level.INFO, "Throttle: " + store.describe() + " answers again; counting resumed");
        }
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        // never echo a URI with credentials
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + io.github.throttle.redis.RedisUris.redact(m));
    }
}
