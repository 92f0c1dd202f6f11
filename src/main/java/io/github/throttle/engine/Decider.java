package io.github.throttle.engine;

import io.github.throttle.CallEnding;
import io.github.throttle.Decision;
import io.github.throttle.Decisions;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Asks the store: turns store calls into {@link Decision}s, picks the clock, bounds every store call by the timeout, and
 * applies the {@linkplain FailurePolicy failure policy}. After a failure the store is not asked again for
 * {@code openPeriod} (callers get the failure decision at once); then one call probes it. Under
 * {@link FailurePolicy#local local}, a store of this instance decides during a failure episode, with scaled
 * limits; its counts are dropped when the episode ends. Any store call that is answered ends
 * the episode at once, the readiness check's {@link #reachable probe} included, so that the check and the
 * decisions never disagree. A failure episode is logged once when it starts (at the store's
 * {@link Store#severity severity} for its cause), again if a later failure of it is more severe (one only an
 * operator can end, met after one that passes by itself), and once when it ends.
 */
public final class Decider {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final Store store;
    private final InstantSource clock;
    private final boolean clientTime;
    private final Duration timeout;
    private final FailurePolicy onFailure;
    private final long openMillis;
    private final StoreCallTimer timer;

    private final AtomicBoolean probing = new AtomicBoolean();
    /** The seats of calls whose outcome is unknown, released blindly. */
    private final BlindReleases blind;
    private volatile long openUntil = Long.MIN_VALUE;
    /** When a failure of one call alone was last logged. */
    private volatile long callFailureLogged = Long.MIN_VALUE;
    private volatile boolean failing;
    /** The level the current failure episode was logged at. */
    private volatile Level loggedAt = Level.ALL;
    /**
     * Under {@link FailurePolicy.Kind#LOCAL}, the store that decides during a failure episode, replaced by an empty
     * one when the episode ends; else null.
     */
    private volatile Store local;

    public Decider(Store store, InstantSource clock, boolean clientTime, Duration timeout, FailurePolicy onFailure,
                   Duration openPeriod) {
        this(store, clock, clientTime, timeout, onFailure, openPeriod, StoreCallTimer.NONE);
    }

    /** @param timer told how each store call ended and how long it took */
    public Decider(Store store, InstantSource clock, boolean clientTime, Duration timeout, FailurePolicy onFailure,
                   Duration openPeriod, StoreCallTimer timer) {
        this.timer = timer;
        this.store = store;
        this.clock = clock;
        this.clientTime = clientTime;
        this.timeout = timeout;
        this.onFailure = onFailure;
        this.openMillis = openPeriod.toMillis();
        this.local = onFailure.kind() == FailurePolicy.Kind.LOCAL ? onFailure.localStore().get() : null;
        this.blind = new BlindReleases(store, clock, timeout);
    }

    /** The time to put in a {@link StoreCall}: the client clock, or -1 for the store's own clock. */
    public long now() {
        return clientTime ? clock.millis() : -1;
    }

    public Store store() {
        return store;
    }

    /**
     * Decides a call. Never completes exceptionally because of the store: failures become the failure
     * decision ({@link Decision#unmetered()}, {@link Decision#unavailable(long)}, or one taken
     * {@linkplain Decision#isLocal() locally}).
     *
     * @param limits the caller's limits, indexed by {@link StoreCall#limitIndex(int)}
     */
    public CompletionStage<Decision> ask(StoreCall call, List<Limit> limits) {
        return ask(call, LimitList.of(limits));
    }

    /** As {@link #ask(StoreCall, List)}, against limits built once and shared by their calls. */
    public CompletionStage<Decision> ask(StoreCall call, LimitList limits) {
        boolean probe = false;
        if (failing) {
            if (clock.millis() < openUntil || !probing.compareAndSet(false, true)) {
                return CompletableFuture.completedFuture(failure(call, limits));
            }
            probe = true;
        }
        boolean isProbe = probe;
        return ask(() -> store.decide(call), (r, failure) -> {
            if (isProbe) {
                probing.set(false);
            }
            if (failure != null) {
                blind.owe(call);
                return failure(call, limits);
            }
            return decided(r, call, limits, this::giveBack);
        });
    }

    /**
     * The decision of a store's reply, with the way to give back what the call took when it ends: each part asked
     * for (the weight a success gives back, the seats, or everything for a call that never ran), once.
     */
    private static Decision decided(StoreReply r, StoreCall call, LimitList limits, Function<Took, CompletionStage<Void>> giveBack) {
        Decision d = ReplyFolding.decision(r, call, limits);
        if (r.allowed() && call.record()) {
            d = Decisions.endingWith(d, CallEnding.of(parts -> {
                Took part = Took.of(call, r).only(parts);
                return part.isEmpty() ? CompletableFuture.completedFuture(null) : giveBack.apply(part);
            }));
        }
        return d;
    }

    /**
     * Gives back what a call took, bounded by the timeout like every store call. Never completes exceptionally:
     * weight that cannot be given back stays counted (the safe side), and the failure is logged as any other.
     */
    private CompletionStage<Void> giveBack(Took took) {
        return giveBack(took, () -> { }, () -> { });
    }

    /** {@link #giveBack(Took)}, then {@code given} once the store took it, or {@code kept} when it could not. */
    CompletionStage<Void> giveBack(Took took, Runnable given, Runnable kept) {
        return ask(() -> store.giveBack(took), (ok, failure) -> {
            (failure == null ? given : kept).run();
            return null;
        });
    }

    /**
     * Asks the store for a lease of up to {@code most}, living at most {@code lifeMillis} ({@link Store#lease}), bounded by the timeout like every store
     * call; completes with null when the store cannot be asked (then the call is decided as any other). A grant whose
     * reply comes after the timeout stays counted until its sub-bucket leaves its windows: the safe side.
     */
    CompletionStage<Leased> lease(StoreCall call, long most, long lifeMillis) {
        if (failing) {
            return CompletableFuture.completedFuture(null);
        }
        return ask(() -> store.lease(call, most, lifeMillis), (r, failure) -> r);
    }

    /**
     * Whether the store can decide: {@code probe}, a call of the store's own that no caller is charged for, is
     * answered within the timeout. The answer is the store's state for calls too: a probe answered ends a
     * failure episode, so the next call asks the store; one not answered starts one. Never completes
     * exceptionally.
     */
    public CompletionStage<Boolean> reachable(StoreCall probe) {
        return ask(() -> store.decide(probe), (r, failure) -> failure == null);
    }

    /**
     * Sends one store call, bounded by the timeout and timed, and ends or starts a failure episode by its
     * outcome; {@code then} gets the reply, or null and the failure's cause.
     */
    private <T, R> CompletionStage<R> ask(Supplier<CompletionStage<T>> call, BiFunction<T, Throwable, R> then) {
        long started = System.nanoTime();
        CompletableFuture<T> reply;
        try {
            reply = call.get().toCompletableFuture();
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        // a reply that is already in (the embedded store) schedules no timeout and runs the handler at once
        return reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((r, e) -> {
            if (e == null) {
                timer.record(StoreCallTimer.SUCCESS, System.nanoTime() - started);
                onSuccess();
                return then.apply(r, null);
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            timer.record(cause instanceof TimeoutException ? StoreCallTimer.TIMEOUT : StoreCallTimer.FAILURE,
                    System.nanoTime() - started);
            if (cause instanceof CallFailure own && store.severity(own) != Level.ERROR) {
                // the store answered: this call fails alone, every other caller still asks it (a failure only an
                // operator can end, a missing permission or a full store, is every call's: an episode)
                onCallFailure(own);
            } else {
                onFailure(cause);
            }
            return then.apply(null, cause);
        });
    }

    /** Whether a store that cannot be asked gets calls denied ({@code throttle.on-store-failure=deny}). */
    public boolean deniesOnFailure() {
        return onFailure.kind() == FailurePolicy.Kind.DENY;
    }

    /** The decision of a store's reply ({@link ReplyFolding}). */
    public static Decision decision(StoreReply r, StoreCall call, List<Limit> limits) {
        return ReplyFolding.decision(r, call, LimitList.of(limits));
    }

    private Decision failure(StoreCall call, LimitList limits) {
        return switch (onFailure.kind()) {
            case ALLOW -> Decision.unmetered();
            case DENY -> Decision.unavailable(Math.max(1000, openMillis));
            case LOCAL -> locally(call, limits);
        };
    }

    /**
     * Decides in this instance's store, each limit scaled by the share: the usual figures, of the scaled limits.
     * The local store answers at once.
     */
    private Decision locally(StoreCall call, LimitList limits) {
        Store in = local;
        StoreCall scaled = call.withLimits(onFailure::scale);
        LimitList scaledLimits = limits.scaled(onFailure);
        StoreReply r = in.decide(scaled).toCompletableFuture().join();
        return Decisions.locally(decided(r, scaled, scaledLimits, in::giveBack));
    }

    /** Logs a failure of one call alone, at most once a minute (each such call gets the failure policy). */
    private void onCallFailure(CallFailure failure) {
        long now = clock.millis();
        long last = callFailureLogged;
        if (now - last < 60_000 && last != Long.MIN_VALUE) {
            return;
        }
        callFailureLogged = now;
        LOG.log(Level.WARNING, "Throttle: " + store.describe() + " failed one call (" + store.describe(failure)
                + "); that call is " + switch (onFailure.kind()) {
                    case ALLOW -> "allowed without counting";
                    case DENY -> "denied";
                    case LOCAL -> "counted on this instance";
                } + ", the others are decided as usual");
    }

    private void onFailure(Throwable cause) {
        openUntil = clock.millis() + openMillis;
        boolean timedOut = cause instanceof TimeoutException;
        Level level = timedOut ? Level.WARNING : store.severity(cause);
        // logged when the episode starts, and once more if a later failure is one only an operator can end while
        // the first was not (a wrong password refused after a connection that dropped under load, say)
        if (failing && level.getSeverity() <= loggedAt.getSeverity()) {
            return;
        }
        synchronized (this) {
            if (failing && level.getSeverity() <= loggedAt.getSeverity()) {
                return;
            }
            failing = true;
            loggedAt = level;
        }
        LOG.log(level, "Throttle: " + store.describe() + " failed ("
                + (timedOut ? "no answer within " + timeout.toMillis() + " ms" : store.describe(cause)) + "); calls are "
                + switch (onFailure.kind()) {
                    case ALLOW -> "allowed without counting";
                    case DENY -> "denied";
                    case LOCAL -> "counted on this instance, each limit × " + onFailure.localShare() + ",";
                } + " until it answers again");
    }

    private void onSuccess() {
        blind.retry();
        if (!failing) {
            return;
        }
        Store dropped;
        synchronized (this) {
            if (!failing) {
                return;
            }
            failing = false;
            dropped = local;
            if (dropped != null) {
                local = onFailure.localStore().get();
            }
        }
        if (dropped != null) {
            dropped.close();
        }
        LOG.log(Level.INFO, "Throttle: " + store.describe() + " answers again; counting resumed"
                + (dropped != null ? " there (the counts of this instance are dropped)" : ""));
    }
}
