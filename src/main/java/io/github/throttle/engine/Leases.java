package io.github.throttle.engine;

import io.github.throttle.Decision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Leased quota of hot keys ({@code throttle.leases=auto}). A call of one key that this instance decided at least
 * {@code minRate} times a second over the last period asks the store for a lease instead of for itself: up to what
 * the instance asked for in that period, at most half of what every window of the call has left (at least the call's
 * weight), recorded in the store as ordinary weight in the current sub-bucket of every window ({@link Store#lease}).
 * The call takes its weight from the grant; later calls of the same key, limits and weight take theirs from what is
 * left, here, until the lease's deadline: the instance's monotonic time when it sent the lease, plus the time the
 * store says the grant's sub-buckets last (at most the period), minus a margin. Taking and checking the deadline are
 * one step under the lease's lock, and a lease ends (nothing more is taken) before what is left is given back.
 *
 * <p>Why never over the limit: each unit admitted here was counted by the store, at the lease, in a sub-bucket that
 * every window containing the admission also contains (the admission comes before that sub-bucket ends, by the
 * store's own measure: the deadline runs from before the store decided), so every window's count covers every call
 * admitted in it. Clocks do not enter: the deadline is this instance's monotonic time, the sub-bucket the store's. A
 * give-back names the generation the key had at the lease, and the store refunds nothing into another one (a reset
 * deletes the key): what is left never subtracts from calls counted after a reset.
 *
 * <p>What live leases hold back from other instances: each at most one period of its instance's own calls, and at
 * most half of what was left when it was granted; it comes back at its end, within the period.
 *
 * <p>One lease is asked for at a time per key: calls that find one on its way wait for it and take from it. Never
 * leased: calls of several keys, seats, calls that may wait, calls whose weight may be given back, report mode (the
 * caller checks the last two). Cold keys keep no state: the counts of a period hold at most {@link #TRACKED} keys.
 */
public final class Leases implements AutoCloseable {

    /** Keys counted per period; more are not counted (they are not hot here). */
    static final int TRACKED = 1024;
    /** Taken off a lease's life: the time between the store's decision and this instance's reading the reply is not. */
    private static final long MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /** What happens to the leases of one bucket, for its meters. */
    public interface Tally {
        /** A lease was granted. */
        void taken();

        /** {@code units} a lease did not use went back to the store. */
        void givenBack(long units);

        /** {@code units} a lease did not use could not be given back: they stay counted until their sub-bucket leaves. */
        void stranded(long units);
    }

    /**
     * A call decided through {@link #lease}, and how long its denial may be taken as certain: a lease gives back what
     * it did not use, so no longer than the key's leases live, as the store tells ({@link Long#MAX_VALUE}: no lease
     * lives; a lease's life when the store did not tell).
     */
    public record Answer(Decision decision, long certainMillis) {
    }

    private final Decider decider;
    private final long minCalls;
    private final long periodNanos;
    private final long lifeMillis;
    private final Map<String, Lease> live = new ConcurrentHashMap<>();
    /** The lease being asked for, per key and limits: calls that find one wait for it. */
    private final Map<String, CompletableFuture<Answer>> asking = new ConcurrentHashMap<>();
    private volatile Period counting = new Period(System.nanoTime());
    /** The counts of the period before, to size leases and find hot keys. */
    private volatile Map<String, LongAdder> previous = Map.of();

    /**
     * @param minRate calls a second that make a key hot ({@code throttle.leases.min-rate})
     * @param period  the longest a lease lives ({@code throttle.leases.period})
     */
    public Leases(Decider decider, long minRate, Duration period) {
        this.decider = decider;
        this.periodNanos = period.toNanos();
        this.lifeMillis = period.toMillis();
        this.minCalls = Math.max(1, minRate * period.toMillis() / 1000);
    }

    private record Period(long started, Map<String, LongAdder> counts) {
        Period(long started) {
            this(started, new ConcurrentHashMap<>());
        }
    }

    /** A lease: the weight left to take here until the deadline. */
    private static final class Lease {
        final Leased grant;
        final long deadline;
        final Tally tally;
        private long units;
        private boolean ended;

        Lease(Leased grant, long units, long deadline, Tally tally) {
            this.grant = grant;
            this.units = units;
            this.deadline = deadline;
            this.tally = tally;
        }

        /** Takes {@code w} if the lease is live and holds it: what is left then; else -1. */
        synchronized long take(long w, long now) {
            if (ended || now - deadline >= 0 || units < w) {
                return -1;
            }
            units -= w;
            return units;
        }

        /** Ends the lease: nothing is taken any more. What was left, or -1 when it had ended already. */
        synchronized long end() {
            if (ended) {
                return -1;
            }
            ended = true;
            long left = units;
            units = 0;
            return left;
        }
    }

    /** Whether {@code call} may be leased: one key, every pair the same weight, no seats, no wait. */
    public static boolean leasable(StoreCall call) {
        if (!call.record() || call.keyCount() != 1 || call.inFlight() || call.maxWaitMillis() > 0) {
            return false;
        }
        long w = call.countWeight(0);
        for (int p = 0; p < call.pairCount(); p++) {
            if (call.countWeight(p) != w || call.limit(p).inFlight()) {
                return false;
            }
        }
        return w > 0;
    }

    /**
     * Counts a leasable call (whatever decides it: a lease, the deny cache, the store); whether its key is hot here,
     * so that the store is asked for a lease rather than for the call alone.
     */
    public boolean hot(String shape) {
        long now = System.nanoTime();
        Period p = counting;
        if (now - p.started() >= periodNanos) {
            synchronized (this) {
                if (counting == p) {
                    // a period with no call at all in between leaves nothing hot
                    previous = now - p.started() >= 2 * periodNanos ? Map.of() : p.counts();
                    counting = new Period(now);
                }
                p = counting;
            }
        }
        LongAdder n = p.counts().get(shape);
        if (n == null && p.counts().size() < TRACKED) {
            n = p.counts().computeIfAbsent(shape, s -> new LongAdder());
        }
        if (n != null) {
            n.increment();
        }
        LongAdder before = previous.get(shape);
        return before != null && before.sum() >= minCalls;
    }

    /** The call decided from a live lease of its key and limits, or null. */
    public Decision admit(String shape, StoreCall call, LimitList limits) {
        Lease l = live.get(shape);
        if (l == null) {
            return null;
        }
        long left = l.take(call.countWeight(0), System.nanoTime());
        return left < 0 ? null : decided(l, left, call, limits);
    }

    /**
     * Decides {@code call} of a hot key by a lease: asks the store for one, unless one is on its way, and takes the
     * call's weight from it. A denial of the lease is the call's (the same key, limits and weight); when the store
     * cannot lease, or others took what the lease held first, the call is decided as any other.
     */
    public CompletionStage<Answer> lease(String shape, StoreCall call, LimitList limits, Tally tally) {
        CompletableFuture<Answer> mine = new CompletableFuture<>();
        CompletableFuture<Answer> theirs = asking.putIfAbsent(shape, mine);
        if (theirs != null) {
            return theirs.thenCompose(a -> {
                if (a.decision().outcome() == io.github.throttle.Outcome.DENIED) {
                    return CompletableFuture.completedFuture(a);
                }
                Decision taken = admit(shape, call, limits);
                return taken != null ? CompletableFuture.completedFuture(new Answer(taken, 0)) : asked(call, limits);
            });
        }
        CompletionStage<Answer> asked;
        try {
            asked = ask(call, limits, tally, shape);
        } catch (RuntimeException e) {
            asked = CompletableFuture.failedFuture(e);
        }
        // whatever happens, the next call of the key finds no lease on its way
        asked.whenComplete((a, failure) -> {
            asking.remove(shape, mine);
            if (failure != null) {
                mine.completeExceptionally(failure);
            } else {
                mine.complete(a);
            }
        });
        return mine;
    }

    /** {@code call} decided by the store as any other: a denial is certain no longer than a lease lives. */
    private CompletionStage<Answer> asked(StoreCall call, LimitList limits) {
        return decider.ask(call, limits).thenApply(d -> new Answer(d, lifeMillis()));
    }

    /** The longest a lease lives, in milliseconds. */
    public long lifeMillis() {
        return lifeMillis;
    }

    private CompletionStage<Answer> ask(StoreCall call, LimitList limits, Tally tally, String shape) {
        long w = call.countWeight(0);
        LongAdder before = previous.get(shape);
        // what this instance asked for in the last period, and its own weight at least
        long most = Math.max(w, before == null ? w : before.sum() * w);
        long sent = System.nanoTime();
        StoreCall asking = call.leasing(w, ThreadLocalRandom.current().nextLong(StoreCall.FIRST_LEASE_ID, StoreCall.LAST_LEASE_ID));
        return decider.lease(asking, most, lifeMillis()).thenCompose(leased -> {
            if (leased == null) {
                // the store cannot lease now: the call is decided as any other (the failure policy)
                return asked(call, limits);
            }
            if (!leased.reply().allowed()) {
                return CompletableFuture.completedFuture(new Answer(ReplyFolding.decision(leased.reply(), call, limits),
                        leased.millis() == 0 ? Long.MAX_VALUE : leased.millis()));
            }
            tally.taken();
            long granted = leased.granted();
            long life = Math.min(TimeUnit.MILLISECONDS.toNanos(leased.millis()), periodNanos);
            Lease l = new Lease(leased, granted - w, sent + life - MARGIN_NANOS, tally);
            Lease old = live.put(shape, l);
            if (old != null) {
                end(old);
            }
            long in = l.deadline - System.nanoTime();
            if (in > 0) {
                CompletableFuture.delayedExecutor(in, TimeUnit.NANOSECONDS).execute(() -> {
                    live.remove(shape, l);
                    end(l);
                });
            } else {
                // the grant's sub-bucket ends before the reply could be used: all but the call goes back
                live.remove(shape, l);
                end(l);
            }
            // the call itself was decided by the store: it stands whatever the deadline
            return CompletableFuture.completedFuture(new Answer(decided(l, granted - w, call, limits), 0));
        });
    }

    /**
     * Ends every lease, after a change of limits, plans or counts, and gives back what they hold, into the
     * generation each was granted in. Completes when the store took the give-backs, or failed to within the timeout.
     */
    public CompletableFuture<Void> endAll() {
        List<CompletableFuture<Void>> back = new ArrayList<>();
        for (Map.Entry<String, Lease> e : live.entrySet()) {
            if (live.remove(e.getKey(), e.getValue())) {
                back.add(end(e.getValue()));
            }
        }
        return CompletableFuture.allOf(back.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> end(Lease l) {
        long left = l.end();
        if (left <= 0) {
            return CompletableFuture.completedFuture(null);
        }
        Leased g = l.grant;
        return decider.giveBack(Took.of(g.call().leasing(left, g.call().leaseId()), g.reply()), () -> l.tally.givenBack(left),
                () -> l.tally.stranded(left)).toCompletableFuture();
    }

    /** A call admitted from a lease: the store's figures at the lease, with what the lease still holds as remaining. */
    private static Decision decided(Lease l, long left, StoreCall call, LimitList limits) {
        StoreReply reply = l.grant.reply();
        long[] figures = new long[call.pairCount() * 3];
        for (int p = 0; p < call.pairCount(); p++) {
            figures[p * 3] = reply.remaining(p) + left;
            figures[p * 3 + 1] = reply.waitMillis(p);
        }
        return ReplyFolding.decision(new StoreReply(true, figures), call, limits);
    }

    /**
     * The key, limits and weight of a leasable call: a lease serves calls of the same. Made once per call, and
     * passed to {@link #hot}, {@link #admit} and {@link #lease}.
     */
    public static String shape(StoreCall call) {
        StringBuilder s = new StringBuilder(call.key(0));
        for (int p = 0; p < call.pairCount(); p++) {
            s.append('|').append(call.limit(p).policy()).append('/').append(call.bound(p)).append('/').append(call.countWeight(p));
        }
        return s.toString();
    }

    /** Gives back what every lease holds, and waits until the store took it (or failed to). */
    @Override
    public void close() {
        endAll().join();
    }
}
