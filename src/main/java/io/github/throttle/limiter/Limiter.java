package io.github.throttle.limiter;

import io.github.throttle.CallEnding;
import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.Decisions;
import io.github.throttle.Outcome;
import io.github.throttle.config.PlanLists;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Leases;
import io.github.throttle.engine.LimitList;
import io.github.throttle.engine.StoreCall;

import java.lang.reflect.Method;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One application's rate limiting, as the adapters use it: its settings, its targets and the decider in
 * front of its store. Per call: target → plan → weight → identities → one store call → decision.
 */
public final class Limiter implements AutoCloseable {

    private static final Decision UNLIMITED = Decisions.as(Decisions.onPlan(Decision.unmetered(), PlanLists.UNLIMITED), Outcome.UNLIMITED);
    /**
     * The readiness check's probe, recorded on a key of its own: a store that can only read (an out-of-memory
     * Redis still runs a script that does not write) cannot decide. It holds one second of probes, far below this.
     */
    private static final Limit PROBE_LIMIT = Limit.fixed(1_000_000, 1000);

    private final ThrottleSettings settings;
    private final KeyCodec codec;
    private final Decider decider;
    private final Targets targets;
    private final Plans plans;
    private final DenyCache denyCache;
    /** Leased quota of hot keys ({@code throttle.leases=auto}), or null. */
    private final Leases leases;
    private volatile Fleet fleet = Fleet.NONE;
    private final String probeKey;
    private final Wakeups wakeups;

    /** @param clock times the deny cache's entries */
    public Limiter(ThrottleSettings settings, KeyCodec codec, Decider decider, Targets targets, InstantSource clock) {
        this(settings, codec, decider, targets, clock, Wakeups.SYSTEM);
    }

    /**
     * @param clock   times the deny cache's entries
     * @param wakeups resumes calls that wait for their turn, by the same clock
     */
    public Limiter(ThrottleSettings settings, KeyCodec codec, Decider decider, Targets targets, InstantSource clock,
                   Wakeups wakeups) {
        this.wakeups = wakeups;
        this.settings = settings;
        this.codec = codec;
        this.decider = decider;
        this.targets = targets;
        this.plans = targets.plans();
        this.denyCache = new DenyCache(settings.denyCacheSize(), clock);
        this.leases = settings.leases() ? new Leases(decider, settings.leaseMinRate(), settings.leasePeriod()) : null;
        this.probeKey = codec.key(codec.bucketHead("throttle-readiness"), "probe");
    }

    public ThrottleSettings settings() {
        return settings;
    }

    /** The target of a method of a bean class, built (and checked) on first use. */
    public Target target(Class<?> beanClass, Method method) {
        return targets.of(beanClass, method);
    }

    /** Whether calls are throttled at all ({@code throttle.enabled}) and this target is on. */
    public boolean active(Target target) {
        return settings.enabled() && target.enabled();
    }

    /**
     * Admits one call of a target, or not, and counts what happened to it: the caller's plan, the limits of that
     * plan, the call's weight, then (unless the plan settles it) one store call. The decision's
     * {@linkplain Decision#outcome() outcome} says what the adapter does: a refused one is answered, any other
     * proceeds (in report mode, nothing is refused).
     *
     * @throws Overweight when the call's weight is above a limit, so that it could never pass (enforce mode)
     * @throws RuntimeException what the target's weigher throws: the call fails as the application's own error
     */
    public CompletionStage<Decision> admit(Target target, Caller caller) {
        return decide(target, caller).thenCompose(this::turn);
    }

    /**
     * As {@link #admit}, but completes as soon as the call is decided: one reserved ahead of now ({@link
     * Decision#waitedMillis()}) proceeds when {@link #turn} completes, and may be undone meanwhile
     * ({@code CallEnding#undo}), its reservation given back at once.
     */
    public CompletionStage<Decision> decide(Target target, Caller caller) {
        boolean report = target.report();
        Fleet f = fleet;
        String assigned = f.assignedPlan(caller);
        String plan = assigned != null ? assigned : plans.of(caller);
        if (PlanLists.BLOCKED.equals(plan)) {
            target.countBlocked();
            return CompletableFuture.completedFuture(report ? Decisions.as(Decision.blocked(), Outcome.WOULD_DENY) : Decision.blocked());
        }
        if (PlanLists.UNLIMITED.equals(plan)) {
            target.countUnlimited();
            return CompletableFuture.completedFuture(UNLIMITED);
        }
        LimitSet limits = target.limitsOn(plan);
        LimitSet.Charge charge = limits.charge(caller, decider.now());
        if (charge.overweight() != null) {
            limits.count(report ? Outcome.WOULD_DENY : Outcome.OVERWEIGHT);
            if (!report) {
                throw new Overweight(charge.overweight());
            }
            return CompletableFuture.completedFuture(
                    Decisions.as(Decisions.onPlan(Decision.unmetered(), limits.plan()), Outcome.WOULD_DENY));
        }
        StoreCall call = charge.call();
        return askStore(call, limits.limits(), limits.plan(), report ? null : limits.leasing()).thenApply(d -> {
            Decision decided = call.record() ? d : free(d);
            Decision decision = report && !decided.allowed() ? Decisions.as(decided, Outcome.WOULD_DENY) : decided;
            Outcome outcome = decision.outcome();
            limits.count(outcome);
            if (outcome == Outcome.DENIED || outcome == Outcome.WOULD_DENY || outcome == Outcome.LOCAL_DENIED) {
                charge.who().forEach(f::denied);
            }
            if (decision.waitedMillis() > 0) {
                limits.waited(decision.waitedMillis());
            }
            return decision;
        });
    }

    /** Completes with {@code decision} when its call may proceed: at once, or when the turn it was reserved comes. */
    public CompletionStage<Decision> turn(Decision decision) {
        return afterWait(decision, decision);
    }

    /** A call whose weight is above a limit of its target: it could never pass (HTTP answers 400). */
    public static final class Overweight extends IllegalArgumentException {
        Overweight(String why) {
            super(why);
        }
    }

    /**
     * Completes with {@code value} when the call may proceed: at once, or for a call reserved ahead of now when its
     * time has come, without holding a thread meanwhile.
     */
    private <T> CompletionStage<T> afterWait(Decision decision, T value) {
        if (decision.waitedMillis() == 0) {
            return CompletableFuture.completedFuture(value);
        }
        return CompletableFuture.supplyAsync(() -> value, wakeups.after(decision.waitedMillis()));
    }

    /**
     * Forgets every denial the deny cache remembers: a change of limits, plan or counts made while running makes
     * them uncertain.
     */
    public void forgetDenials() {
        denyCache.clear();
        endLeases();
    }

    /**
     * Ends every lease this instance holds, and gives back what they hold: after a change of limits, plans or counts
     * (a give-back never crosses a reset: the store refunds only into the generation a lease was granted in).
     */
    private void endLeases() {
        if (leases != null) {
            leases.endAll();
        }
    }

    /**
     * One store call, unless a lease of a hot key or the deny cache decides the call; a denial the store answers is
     * remembered.
     *
     * @param leasing the meters of the leases the call may take from; null when it never takes from one
     */
    private CompletionStage<Decision> askStore(StoreCall call, LimitList limits, String plan, Leases.Tally leasing) {
        boolean givesBack = targets.givesBackIn(call);
        // a call whose weight may come back is never leased: a lease's weight is the lease's
        String shape = leases != null && leasing != null && !givesBack && Leases.leasable(call) ? Leases.shape(call) : null;
        // counted before the deny cache answers, so that a key denied for a while is still hot when its window turns
        boolean hot = shape != null && leases.hot(shape);
        if (shape != null) {
            Decision taken = leases.admit(shape, call, limits);
            if (taken != null) {
                return CompletableFuture.completedFuture(Decisions.onPlan(taken, plan));
            }
        }
        // a seat can come back at any moment: a denial by an in-flight limit is never certain beyond its call
        boolean cacheable = denyCache.enabled() && call.record() && !call.inFlight() && !givesBack;
        if (cacheable) {
            Decision known = denyCache.denied(call, plan);
            if (known != null) {
                return CompletableFuture.completedFuture(known);
            }
        }
        long sentAt = denyCache.now();
        // with leases, a lease's give-back can free weight: a denial is certain no longer than leases live
        long certain = leases == null ? Long.MAX_VALUE : leases.lifeMillis();
        CompletionStage<Leases.Answer> asked = hot ? leases.lease(shape, call, limits, leasing)
                : decider.ask(call, limits).thenApply(d -> new Leases.Answer(d, certain));
        return asked.thenApply(a -> {
            Decision onPlan = Decisions.onPlan(a.decision(), plan);
            // a local denial is this instance's alone: the store may allow the call as soon as it answers
            if (cacheable && !onPlan.allowed() && !onPlan.isLocal()) {
                denyCache.remember(call, plan, onPlan, sentAt, a.certainMillis());
            }
            return onPlan;
        });
    }

    /** A free call (weight 0) is allowed, whatever its figures say; a store failure still decides as configured. */
    private static Decision free(Decision d) {
        if (d.isUnmetered()) {
            return d;
        }
        List<Decision.Quota> quotas = new ArrayList<>(d.quotas().size());
        for (Decision.Quota q : d.quotas()) {
            quotas.add(new Decision.Quota(q.policy(), q.limit(), q.windowMillis(), q.remaining(), q.resetMillis(), false, q.inFlight()));
        }
        Decision allowed = Decisions.onPlan(Decisions.of(true, quotas, Decisions.policies(d)), d.plan().orElse(null));
        return d.isLocal() ? Decisions.locally(allowed) : allowed;
    }

    /**
     * Whether some calls may be refused as blocked: a {@code blocked} list names someone, a plan bean exists, or the
     * admin API is on.
     */
    public boolean mayBlock() {
        // with the admin API, anyone can be put on plan blocked at any time
        return plans.mayBlock() || settings.adminEnabled();
    }

    /**
     * Whether the store can decide, for the readiness check: a call recorded on a key of its own (no caller is
     * charged), answered within the timeout. Its answer also ends (or starts) a failure episode, so calls and the
     * check agree.
     */
    public CompletionStage<Boolean> storeReachable() {
        StoreCall probe = StoreCall.builder(decider.now(), true).add(probeKey, PROBE_LIMIT, 1, 0).build();
        return decider.reachable(probe);
    }

    /** What kind of store counts: {@code memory}, {@code redis}, {@code redis-cluster}, {@code redis-sentinel}. */
    public String storeKind() {
        return decider.store().kind();
    }

    /** Whether a store that cannot be asked gets calls denied. */
    public boolean deniesOnStoreFailure() {
        return decider.deniesOnFailure();
    }

    /**
     * Decides a programmatic call: {@code weight} charged to {@code identity} in {@code bucket} against each
     * limit, or (not {@code record}) usage only reported; a recorded call that does not fit now may wait up to
     * {@code maxWaitMillis} for its turn (the stage completes when it may proceed).
     */
    public CompletionStage<Decision> acquire(String bucket, String identity, long weight, boolean record, List<Limit> limits,
                                             long maxWaitMillis) {
        String head = codec.bucketHead(bucket);
        String key = codec.key(head, identity);
        StoreCall.Builder builder = StoreCall.builder(decider.now(), record).maxWait(record ? maxWaitMillis : 0);
        for (int i = 0; i < limits.size(); i++) {
            // every recorded programmatic call can be given back (Throttler.giveBack)
            builder.add(key, limits.get(i), weight, i, record);
        }
        StoreCall call = builder.build();
        return askStore(call, LimitList.of(limits), null, null).thenApply(d -> !d.allowed() || !record ? d : Decisions.endingWith(d, CallEnding.of(parts -> {
            // weight can come back in this bucket from now on: its denials are no longer certain
            if (!parts.equals(Set.of(CallEnding.Part.SEATS)) && targets.givesBackFrom(head)) {
                denyCache.forgetBucket(head);
            }
            if (parts.contains(CallEnding.Part.REST)) {
                return d.ending().undo();
            }
            CompletionStage<Void> back = parts.contains(CallEnding.Part.WEIGHT) ? d.ending().giveBack() : CompletableFuture.completedFuture(null);
            return parts.contains(CallEnding.Part.SEATS) ? back.thenCombine(d.ending().release(), (a, b) -> null) : back;
        }))).thenCompose(d -> afterWait(d, d));
    }

    /** Forgets everything counted for {@code identity} in {@code bucket}. */
    public CompletionStage<Void> reset(String bucket, String identity) {
        String key = codec.key(codec.bucketHead(bucket), identity);
        denyCache.forget(key);
        endLeases();
        return decider.store().reset(key);
    }

    /** Forgets every count of every bucket and identity; assignments and overrides stay. */
    public CompletionStage<Void> resetAll() {
        // denials are forgotten once the counts are gone (a call denied meanwhile is not remembered past them), and
        // after a reset that failed part-way too
        endLeases();
        return decider.store().resetAll(codec).whenComplete((done, failure) -> denyCache.clear());
    }

    /** The targets of this application, as built so far. */
    public Targets targets() {
        return targets;
    }

    /** Joins the instances sharing this limiter's store: their assignments and denials count from now on. */
    public void join(Fleet fleet) {
        this.fleet = fleet;
    }

    /**
     * The fleet joined, as its own type.
     *
     * @throws ClassCastException when the fleet joined is not one
     */
    public <F extends Fleet> F fleet(Class<F> type) {
        return type.cast(fleet);
    }

    @Override
    public void close() {
        if (leases != null) {
            leases.close();
        }
        fleet.close();
        decider.store().close();
    }
}
