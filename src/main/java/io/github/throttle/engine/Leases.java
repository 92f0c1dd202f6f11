package io.github.throttle.engine;

import io.github.throttle.Decision;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Leased quota of hot keys ({@code throttle.leases=auto}). A call of one key that this instance decided more than
 * {@code minRate} times a second over the last period asks the store for a lease instead: up to what the instance
 * used in a period, recorded in the store as ordinary weight in the current sub-bucket of every window of the call
 * ({@link Store#lease}). The call takes its weight from it; later calls of the same key and limits take theirs from
 * what is left, here, until the lease's deadline: the instance's monotonic time when it sent the lease, plus the time
 * the store says the grant's sub-buckets last (at most the period), minus a margin. Taking and the deadline's check
 * are one step under the lease's lock, and the lease ends (nothing more is taken) before what is left is given back.
 *
 * <p>Why never over the limit: each unit admitted here was counted by the store, at the lease, in a sub-bucket that
 * every window containing the admission also contains (the admission comes before that sub-bucket ends, by the
 * store's own measure: the deadline runs from before the store decided), so every window's count covers every call
 * admitted in it. Clocks do not enter: the deadline is this instance's monotonic time, the sub-bucket the store's.
 *
 * <p>Never leased: calls of several keys, seats, calls that may wait, calls whose weight may be given back, report
 * mode. Cold keys keep no state: the counts of a period hold at most {@link #TRACKED} keys.
 */
public final class Leases implements AutoCloseable {

    /** Keys counted per period; more are not counted (they are not hot here). */
    static final int TRACKED = 1024;
    /** Taken off a lease's life: the time between the store's decision and this instance's reading the reply is not. */
    private static final long MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Decider decider;
    private final long minCalls;
    private final long periodNanos;
    private final Map<String, Lease> live = new ConcurrentHashMap<>();
    private volatile Period counting = new Period(System.nanoTime());
    /** The counts of the period before, to size leases and find hot keys. */
    private volatile Map<String, LongAdder> previous = Map.of();

    /**
     * @param minRate calls a second that make a key hot ({@code throttle.leases.min-rate})
     * @param period  the longest a lease lives ({@code throttle.leases.period})
     */
    public Leases(Decider decider, long minRate, java.time.Duration period) {
        this.decider = decider;
        this.periodNanos = period.toNanos();
        this.minCalls = Math.max(1, minRate * period.toMillis() / 1000);
    }

    private record Period(long started, Map<String, LongAdder> counts) {
        Period(long started) {
            this(started, new ConcurrentHashMap<>());
        }
    }

    /** A lease: the weight left to take here until the deadline. */
    private static final class Lease {
        final StoreCall call;
        final StoreReply reply;
        final long deadline;
        private long units;
        private boolean ended;

        Lease(StoreCall call, StoreReply reply, long units, long deadline) {
            this.call = call;
            this.reply = reply;
            this.units = units;
            this.deadline = deadline;
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

    /** Whether {@code call} may be leased: one key, every pair the same weight, no seats, no wait, nothing to give back. */
    public static boolean leasable(StoreCall call) {
        if (!call.record() || call.keyCount() != 1 || call.inFlight() || call.maxWaitMillis() > 0 || call.returnable()) {
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

    /** The call decided from a live lease of its key and limits, or null: ask the store. */
    public Decision admit(StoreCall call, LimitList limits) {
        Lease l = live.get(shape(call));
        if (l == null) {
            return null;
        }
        long left = l.take(call.countWeight(0), System.nanoTime());
        return left < 0 ? null : decided(l, left, call, limits);
    }

    /** Counts a call of a leasable shape; whether its key is hot here (a lease should be asked for). */
    public boolean hot(StoreCall call) {
        String shape = shape(call);
        long now = System.nanoTime();
        Period p = counting;
        if (now - p.started() >= periodNanos) {
            synchronized (this) {
                if (counting == p) {
                    previous = p.counts();
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

    /**
     * Asks for a lease for {@code call} and decides it from the grant; when less than its weight is granted, or the
     * store fails, the call is decided as any other.
     */
    public CompletionStage<Decision> lease(StoreCall call, LimitList limits) {
        long w = call.countWeight(0);
        Lease last = live.get(shape(call));
        if (last != null && System.nanoTime() - last.deadline < 0) {
            // a lease this period found too little left: ask as any call until it ends
            return decider.ask(call, limits);
        }
        LongAdder before = previous.get(shape(call));
        // what this instance used in the last period, and its own weight at least
        long size = Math.max(w, before == null ? w : before.sum() * w);
        StoreCall asking = call.withWeight(size);
        long sent = System.nanoTime();
        return decider.lease(asking).thenCompose(leased -> {
            if (leased == null || leased.granted() < w) {
                if (leased != null && leased.granted() > 0) {
                    decider.giveBack(Took.of(call.withWeight(leased.granted()), leased.reply()));
                }
                if (leased != null) {
                    // too little left for a lease: none is asked for this period (an empty one stands for it)
                    live.put(shape(call), new Lease(call, leased.reply(), 0, sent + periodNanos));
                }
                return decider.ask(call, limits);
            }
            long life = Math.min(TimeUnit.MILLISECONDS.toNanos(leased.millis()), periodNanos);
            Lease l = new Lease(call.withWeight(leased.granted()), leased.reply(), leased.granted() - w, sent + life - MARGIN_NANOS);
            Lease old = live.put(shape(call), l);
            if (old != null) {
                end(old, true);
            }
            long in = l.deadline - System.nanoTime();
            Executor at = in > 0 ? CompletableFuture.delayedExecutor(in, TimeUnit.NANOSECONDS) : Runnable::run;
            at.execute(() -> {
                live.remove(shape(call), l);
                end(l, true);
            });
            // the call itself was decided by the store: it stands whatever the deadline
            return CompletableFuture.completedFuture(decided(l, leased.granted() - w, call, limits));
        });
    }

    /**
     * Ends every lease; {@code giveBack}: what is left goes back to the store (not after a reset: it counts others
     * now). Completes when the store took the give-backs, or failed to within the timeout.
     */
    public CompletableFuture<Void> endAll(boolean giveBack) {
        List<CompletableFuture<Void>> back = new ArrayList<>();
        for (Map.Entry<String, Lease> e : live.entrySet()) {
            if (live.remove(e.getKey(), e.getValue())) {
                back.add(end(e.getValue(), giveBack));
            }
        }
        return CompletableFuture.allOf(back.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> end(Lease l, boolean giveBack) {
        long left = l.end();
        if (left > 0 && giveBack) {
            return decider.giveBack(Took.of(l.call.withWeight(left), l.reply)).toCompletableFuture();
        }
        return CompletableFuture.completedFuture(null);
    }

    /** A call admitted from a lease: the store's figures at the lease, with what the lease still holds as remaining. */
    private static Decision decided(Lease l, long left, StoreCall call, LimitList limits) {
        long[] figures = new long[call.pairCount() * 3];
        for (int p = 0; p < call.pairCount(); p++) {
            figures[p * 3] = l.reply.remaining(p) + left;
            figures[p * 3 + 1] = l.reply.waitMillis(p);
        }
        return ReplyFolding.decision(new StoreReply(true, figures), call, limits);
    }

    /** The key and limits of a call: a lease serves calls of the same. */
    private static String shape(StoreCall call) {
        StringBuilder s = new StringBuilder(call.key(0));
        for (int p = 0; p < call.pairCount(); p++) {
            s.append('|').append(call.limit(p).policy()).append('/').append(call.bound(p)).append('/').append(call.countWeight(p));
        }
        return s.toString();
    }

    /** Gives back what every lease holds, and waits until the store took it (or failed to). */
    @Override
    public void close() {
        endAll(true).join();
    }
}
