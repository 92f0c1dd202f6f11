package io.github.throttle.memory;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.SharedChanges;
import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The embedded store: the rules of the Redis script ({@code sliding-window.lua}), applied in this JVM.
 *
 * <p>A call holds the {@link StripedLocks locks} of its keys while it decides, so it is atomic over them. An
 * identity whose weight has all left its longest window is evicted by the {@link Sweeper}.
 */
public final class MemoryStore implements Store, SharedState {

    private final InstantSource clock;
    private final long expirySlackMillis;
    private final ConcurrentHashMap<String, IdentityCounts> identities = new ConcurrentHashMap<>();
    private final SharedSettings shared;
    private final StripedLocks locks = new StripedLocks();
    private final Sweeper sweeper;

    public MemoryStore(InstantSource clock) {
        this(clock, 0);
    }

    /** @param expirySlackMillis kept after an identity's last weight leaves its window (tests) */
    public MemoryStore(InstantSource clock, long expirySlackMillis) {
        this(clock, expirySlackMillis, CompletableFuture::runAsync);
    }

    /** @param sweeps runs the sweeps of idle identities (tests: on the caller's thread, to know when they end) */
    MemoryStore(InstantSource clock, long expirySlackMillis, Executor sweeps) {
        this.clock = clock;
        this.shared = new SharedSettings(clock);
        this.expirySlackMillis = expirySlackMillis;
        this.sweeper = new Sweeper(clock, identities::size, this::evictExpired, sweeps);
    }

    @Override
    public CompletionStage<StoreReply> decide(StoreCall call) {
        try {
            return CompletableFuture.completedFuture(decideNow(call));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Decides synchronously; the store never waits for anything but its own locks. */
    public StoreReply decideNow(StoreCall call) {
        long now = call.nowMillis() >= 0 ? call.nowMillis() : clock.millis();
        try {
            return locks.holding(call.keys(), () -> decideLocked(call, now));
        } finally {
            sweeper.afterCall(now);
        }
    }

    /** What one pair (key and limit) of a call sees, then leaves. */
    private static final class Pair {
        Seats seats;            // of an in-flight limit; null while it holds none
        WindowCounts counts;    // null while nothing of this window is counted
        long subBucket;         // the call's sub-bucket (the newest one if the clock went back)
        long at;                // the time the figures are relative to
        long used;              // weight counted in the window
        int leaving;            // older sub-buckets that have left the window
        long oldest;            // oldest sub-bucket still in the window
        WindowCounts window;    // the window's counts, whatever they hold; null when it has none
        Reservations all;       // with reservations: every sub-bucket's weight, reserved included; else null
        Reservations reserved;  // with reservations: the reserved sub-buckets still in a window
        long peak;              // weight in the fullest window holding the call's sub-bucket
        Reservations waited;    // of a call that may wait and was denied now: every sub-bucket's weight
        long reservedIn = -1;   // the sub-bucket the call was reserved in, or -1
    }

    private StoreReply decideLocked(StoreCall call, long now) {
        int pairs = call.pairCount();
        Pair[] seen = new Pair[pairs];
        boolean allowed = true;
        // first pass reads only: like the script, a denied call or a report writes nothing
        for (int k = 0; k < call.keyCount(); k++) {
            IdentityCounts identity = identities.get(call.key(k));
            for (int p = call.firstPair(k); p < call.firstPair(k + 1); p++) {
                Limit l = bounded(call, p);
                if (call.sharesCountWith(p) >= 0) {
                    // one count for both: what the earlier pair sees, and later records, is this pair's too
                    seen[p] = seen[call.sharesCountWith(p)];
                } else {
                    seen[p] = l.inFlight() ? lookSeats(identity == null ? null : identity.seats(l), l, now)
                            : look(identity == null ? null : identity.find(l), l, now);
                }
                allowed &= seen[p].peak + call.weight(p) <= l.limit();
            }
        }
        long delay = 0;
        if (!allowed && call.record() && call.maxWaitMillis() > 0 && !call.inFlight()) {
            long t0 = reservation(call, seen, now);
            if (t0 >= 0) {
                allowed = true;
                delay = t0 - now;
            }
        }
        if (allowed && call.record()) {
            for (int k = 0; k < call.keyCount(); k++) {
                record(call, k, seen, now);
            }
        }
        long[] figures = new long[pairs * 3];
        for (int p = 0; p < pairs; p++) {
            Limit l = bounded(call, p);
            Pair s = seen[p];
            long need = s.used + call.weight(p) - l.limit();
            figures[p * 3] = Math.max(0, l.limit() - s.used);
            if (s.all != null || s.reservedIn >= 0) {
                reservedFigures(figures, p, call, l, s, allowed, now);
            } else if (l.inFlight()) {
                seatFigures(figures, p, l, s, need, !allowed);
            } else if (!allowed && need > s.used) {
                // heavier than the limit itself (only under scaled local limits: callers refuse such calls before):
                // it never fits; the wait is a whole window
                figures[p * 3 + 1] = l.leavesAt(s.subBucket) - s.at;
                figures[p * 3 + 2] = 1;
            } else if (!allowed && need > 0) {
                figures[p * 3 + 1] = l.leavesAt(s.counts.subBucketFreeing(s.leaving, need)) - s.at;
                figures[p * 3 + 2] = 1;
            } else if (s.used > 0) {
                figures[p * 3 + 1] = l.leavesAt(s.oldest) - s.at;
            }
        }
        if (allowed && call.record()) {
            long[] subBuckets = new long[pairs];
            for (int p = 0; p < pairs; p++) {
                subBuckets[p] = seen[p].reservedIn >= 0 ? -1 - seen[p].reservedIn : seen[p].subBucket;
            }
            return new StoreReply(true, figures, subBuckets, delay);
        }
        return new StoreReply(allowed, figures, null, delay);
    }

    /**
     * Reserves a call that does not fit now at the earliest time {@code t0 <= now + maxWait} at which every window
     * allows it, not before any window's latest reservation: in each window, in the sub-bucket of {@code t0}
     * when that is later than the call's own (the other windows record it as usual). Returns {@code t0}, or -1
     * when it does not fit within its wait.
     */
    private long reservation(StoreCall call, Pair[] seen, long now) {
        List<Reservations.Window> windows = new ArrayList<>(seen.length);
        long from = now;
        for (int p = 0; p < seen.length; p++) {
            Limit l = bounded(call, p);
            Pair s = seen[p];
            if (s.window != null && s.window.marked()) {
                from = Math.max(from, s.window.lastReserved());
            }
            if (s.all != null) {
                s.waited = s.all;
            } else {
                s.waited = s.counts != null && s.used > 0 ? s.counts.blocksFrom(s.leaving) : Reservations.NONE;
            }
            windows.add(new Reservations.Window(s.waited, l.precisionMillis(), l.subBuckets(), l.limit(), call.weight(p), s.subBucket));
        }
        long t0 = from <= now + call.maxWaitMillis() ? Reservations.earliest(windows, from, now + call.maxWaitMillis()) : -1;
        if (t0 < 0) {
            return -1;
        }
        for (int p = 0; p < seen.length; p++) {
            Reservations.Window v = windows.get(p);
            long rec = v.recordedAt(t0);
            // a count shared with an earlier pair is reserved once, through it
            if (rec > v.base() && call.sharesCountWith(p) < 0) {
                Limit l = call.limit(p);
                Pair s = seen[p];
                IdentityCounts identity = identities.computeIfAbsent(call.key(keyOf(call, p)), key -> new IdentityCounts());
                WindowCounts counts = s.window != null ? s.window : identity.findOrAdd(l);
                long last = counts.marked() ? Math.max(counts.lastReserved(), t0) : t0;
                Reservations kept = s.reserved != null ? s.reserved : Reservations.NONE;
                counts.reserve(kept.merge(new Reservations(new long[] {rec}, new long[] {call.weight(p)})), last);
                identity.expiresAt = Math.max(identity.expiresAt, l.leavesAt(rec) + expirySlackMillis);
                s.reservedIn = rec;
            }
        }
        return t0;
    }

    /**
     * The pair's limit as the store checks it: its {@linkplain StoreCall#bound bound} in place of the limit (the
     * same limit unless the pair shares its count with a heavier one).
     */
    private static Limit bounded(StoreCall call, int pair) {
        return call.limit(pair).withLimit(call.bound(pair));
    }

    private static int keyOf(StoreCall call, int pair) {
        int k = 0;
        while (call.firstPair(k + 1) <= pair) {
            k++;
        }
        return k;
    }

    /** The figures of a window holding reservations, or of a call reserved, as the script's rules give them. */
    private static void reservedFigures(long[] figures, int p, StoreCall call, Limit l, Pair s, boolean allowed, long now) {
        long w = call.weight(p);
        long k = l.subBuckets();
        if (s.reservedIn >= 0) {
            long oldest = s.waited.isEmpty() ? s.reservedIn : Math.min(s.waited.oldest(), s.reservedIn);
            figures[p * 3] = Math.max(0, l.limit() - s.waited.peak(k, s.reservedIn) - w);
            figures[p * 3 + 1] = l.leavesAt(oldest) - now;
        } else if (allowed && call.record()) {
            long oldest = w > 0 ? Math.min(s.all.oldest(), s.subBucket) : s.all.oldest();
            figures[p * 3] = Math.max(0, l.limit() - s.peak - w);
            figures[p * 3 + 1] = l.leavesAt(oldest) - s.at;
        } else if (allowed || s.peak + w <= l.limit()) {
            figures[p * 3] = Math.max(0, l.limit() - s.peak);
            figures[p * 3 + 1] = l.leavesAt(s.all.oldest()) - s.at;
        } else {
            figures[p * 3] = Math.max(0, l.limit() - s.peak);
            long fits = Reservations.earliest(List.of(new Reservations.Window(s.all, l.precisionMillis(), k, l.limit(), w, s.subBucket)),
                    s.at, Long.MAX_VALUE);
            if (fits < 0) {
                // heavier than the limit: a whole window after the newest weight
                fits = l.leavesAt(Math.max(s.all.newest(), s.subBucket));
            }
            figures[p * 3 + 1] = fits - s.at;
            figures[p * 3 + 2] = 1;
        }
    }

    /** What the seats of an in-flight limit hold at {@code now}, without changing them. */
    private static Pair lookSeats(Seats seats, Limit l, long now) {
        Pair s = new Pair();
        s.seats = seats;
        s.at = now;
        s.used = seats == null ? 0 : seats.used(now);
        s.peak = s.used;
        return s;
    }

    /**
     * The wait of an in-flight pair: when denied by it, until enough leases end for the call to fit (a whole
     * lease if they never free enough); otherwise until the soonest lease held ends (0 when none is).
     */
    private static void seatFigures(long[] figures, int p, Limit l, Pair s, long need, boolean denied) {
        if (denied && need > 0) {
            long end = s.seats == null ? Long.MAX_VALUE : s.seats.endFreeing(need, s.at);
            figures[p * 3 + 1] = end == Long.MAX_VALUE ? l.durationMillis() : end - s.at;
            figures[p * 3 + 2] = 1;
        } else if (s.used > 0) {
            figures[p * 3 + 1] = s.seats.soonestEnd(s.at) - s.at;
        }
    }

    /** What a window holds at {@code now}, without changing it. */
    private static Pair look(WindowCounts counts, Limit l, long now) {
        Pair s = new Pair();
        s.subBucket = l.subBucket(now);
        s.at = now;
        if (counts != null && counts.counted() > 0) {
            if (s.subBucket < counts.newest()) {
                // the clock went back: keep counting in the newest sub-bucket
                s.subBucket = counts.newest();
                s.at = counts.newest() * l.precisionMillis();
            }
            long trim = s.subBucket - l.subBuckets() + 1;
            if (counts.newest() >= trim) {
                s.counts = counts;
                s.leaving = counts.leaving(trim);
                s.used = counts.counted() - counts.weightOfOldest(s.leaving);
                s.oldest = counts.subBucket(s.leaving);
            }
        }
        s.peak = s.used;
        s.window = counts;
        if (counts != null && counts.marked()) {
            Reservations reserved = counts.reservedFrom(s.subBucket - l.subBuckets() + 1);
            if (!reserved.isEmpty()) {
                s.reserved = reserved;
                s.all = (s.counts != null && s.used > 0 ? counts.blocksFrom(s.leaving) : Reservations.NONE).merge(reserved);
                s.peak = s.all.peak(l.subBuckets(), s.subBucket);
            }
        }
        return s;
    }

    /**
     * Records the call's weight in every window of key {@code k} and takes its seat in every in-flight limit (the
     * pair's sub-bucket is then its lease id), and moves the identity's expiry.
     */
    private void record(StoreCall call, int k, Pair[] seen, long now) {
        IdentityCounts identity = identities.computeIfAbsent(call.key(k), key -> new IdentityCounts());
        boolean started = false;
        long longest = 0;
        for (int p = call.firstPair(k); p < call.firstPair(k + 1); p++) {
            if (call.sharesCountWith(p) >= 0) {
                // recorded once, through the earlier pair whose count it shares
                continue;
            }
            Limit l = call.limit(p);
            Pair s = seen[p];
            if (l.inFlight()) {
                if (call.weight(p) > 0) {
                    s.seats = identity.seatsOrAdd(l);
                    s.subBucket = s.seats.take(now, l.durationMillis(), call.weight(p));
                    s.used = s.seats.used(now);
                    started = true;
                    longest = Math.max(longest, l.durationMillis());
                }
                continue;
            }
            if (s.reservedIn >= 0) {
                continue;
            }
            if (s.counts == null) {
                s.counts = identity.findOrAdd(l);
                s.counts.clear();
            } else {
                s.counts.drop(s.leaving);
            }
            s.counts.mark(s.all != null);
            started |= s.counts.record(s.subBucket, call.weight(p));
            s.used = s.counts.counted();
            s.leaving = 0;
            s.oldest = s.counts.subBucket(0);
            longest = Math.max(longest, l.leavesAt(s.subBucket) - now);
        }
        if (started) {
            identity.expiresAt = Math.max(identity.expiresAt, now + longest + expirySlackMillis);
        }
    }

    @Override
    public CompletionStage<Void> giveBack(StoreCall call, long[] subBuckets) {
        try {
            locks.holding(call.keys(), () -> {
                for (int k = 0; k < call.keyCount(); k++) {
                    IdentityCounts identity = identities.get(call.key(k));
                    for (int p = call.firstPair(k); identity != null && p < call.firstPair(k + 1); p++) {
                        Limit l = call.limit(p);
                        if (l.inFlight()) {
                            Seats seats = identity.seats(l);
                            if (seats != null && seats.release(subBuckets[p])) {
                                identity.dropSeats(l);
                            }
                            continue;
                        }
                        WindowCounts counts = identity.find(l);
                        if (counts != null && subBuckets[p] < 0) {
                            counts.giveBackReserved(-1 - subBuckets[p], call.weight(p));
                        } else if (counts != null) {
                            counts.giveBack(subBuckets[p], call.weight(p));
                        }
                    }
                }
                return null;
            });
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletionStage<Void> reset(String... keys) {
        for (String key : keys) {
            synchronized (locks.of(key)) {
                identities.remove(key);
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Number of identities held (for tests and figures). */
    public int size() {
        return identities.size();
    }

    /** Removes every identity whose counted weight has all left its windows by {@code now}. */
    public int evictExpired(long now) {
        int removed = 0;
        for (var it = identities.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue().expiresAt <= now) {
                synchronized (locks.of(e.getKey())) {
                    if (e.getValue().expiresAt <= now && identities.remove(e.getKey(), e.getValue())) {
                        removed++;
                    }
                }
            }
        }
        return removed;
    }

    @Override
    public String kind() {
        return "memory";
    }

    @Override
    public String describe() {
        return "embedded in-memory store";
    }

    @Override
    public String describe(Throwable failure) {
        return Store.super.describe(failure);
    }

    @Override
    public CompletionStage<Long> writeShared(String key, String field, String value) {
        return CompletableFuture.completedFuture(shared.write(key, field, value));
    }

    @Override
    public CompletionStage<SharedChanges> sharedChanges(String key, long held) {
        return CompletableFuture.completedFuture(shared.changes(key, held));
    }

    @Override
    public CompletionStage<Map<String, String>> readShared(String key) {
        return CompletableFuture.completedFuture(shared.read(key));
    }

    @Override
    public CompletionStage<Void> addShared(String key, Map<String, Long> deltas, long ttlMillis) {
        shared.add(key, deltas, ttlMillis);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void close() {
        identities.clear();
    }
}
