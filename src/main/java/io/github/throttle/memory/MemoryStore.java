package io.github.throttle.memory;

import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.SharedChanges;
import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Taken;
import io.github.throttle.engine.Took;

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
            return locks.holding(call, () -> decideLocked(call, now));
        } finally {
            sweeper.afterCall(now);
        }
    }

    private StoreReply decideLocked(StoreCall call, long now) {
        int pairs = call.pairCount();
        Part[] seen = new Part[pairs];
        boolean allowed = true;
        // first pass reads only: like the script, a denied call or a report writes nothing
        for (int k = 0; k < call.keyCount(); k++) {
            IdentityCounts identity = identities.get(call.key(k));
            for (int p = call.firstPair(k); p < call.firstPair(k + 1); p++) {
                Limit l = bounded(call, p);
                if (call.sharesCountWith(p) >= 0) {
                    // one count for both: what the earlier pair sees, and later records, is this pair's too
                    seen[p] = seen[call.sharesCountWith(p)];
                } else if (l.inFlight()) {
                    seen[p] = SeatPart.look(identity == null ? null : identity.seats(l), now);
                } else {
                    seen[p] = WindowPart.look(identity == null ? null : identity.find(l), l, now);
                }
                allowed &= seen[p].peak + call.countWeight(p) <= l.limit();
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
            figures[p * 3] = Math.max(0, l.limit() - seen[p].used);
            seen[p].figures(figures, p, l, call.countWeight(p), allowed, call.record(), now);
        }
        if (allowed && call.record()) {
            Taken[] taken = new Taken[pairs];
            for (int p = 0; p < pairs; p++) {
                taken[p] = seen[p].taken();
            }
            return new StoreReply(true, figures, taken, delay);
        }
        return new StoreReply(allowed, figures, null, delay);
    }

    /**
     * Reserves a call that does not fit now at the earliest time {@code t0 <= now + maxWait} at which every window
     * allows it, not before any window's latest reservation: in each window, in the sub-bucket of {@code t0}
     * when that is later than the call's own (the other windows record it as usual). Returns {@code t0}, or -1
     * when it does not fit within its wait. A call that holds seats never comes here.
     */
    private long reservation(StoreCall call, Part[] seen, long now) {
        List<Reservations.Window> windows = new ArrayList<>(seen.length);
        long from = now;
        for (int p = 0; p < seen.length; p++) {
            WindowPart s = (WindowPart) seen[p];
            from = Math.max(from, s.lastReserved());
            windows.add(s.waiting(bounded(call, p), call.countWeight(p)));
        }
        long t0 = from <= now + call.maxWaitMillis() ? Reservations.earliest(windows, from, now + call.maxWaitMillis()) : -1;
        if (t0 < 0) {
            return -1;
        }
        for (int p = 0; p < seen.length; p++) {
            Reservations.Window v = windows.get(p);
            long rec = v.recordedAt(t0);
            // a count shared with an earlier pair is reserved once, through it; a window the call takes nothing from
            // keeps no reservation of it
            if (rec > v.base() && call.sharesCountWith(p) < 0 && call.countWeight(p) > 0) {
                IdentityCounts identity = identities.computeIfAbsent(call.key(keyOf(call, p)), key -> new IdentityCounts());
                long leaves = ((WindowPart) seen[p]).reserve(identity, call.limit(p), call.countWeight(p), t0, rec);
                identity.expiresAt = Math.max(identity.expiresAt, leaves + expirySlackMillis);
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

    /** Records the call in every counter of key {@code k}, and moves the identity's expiry. */
    private void record(StoreCall call, int k, Part[] seen, long now) {
        IdentityCounts identity = identities.computeIfAbsent(call.key(k), key -> new IdentityCounts());
        boolean started = false;
        long longest = 0;
        for (int p = call.firstPair(k); p < call.firstPair(k + 1); p++) {
            if (call.sharesCountWith(p) >= 0) {
                // recorded once, through the earlier pair whose count it shares
                continue;
            }
            longest = Math.max(longest, seen[p].record(identity, call.limit(p), call.countWeight(p), now, call.leaseId()));
            started |= seen[p].started;
        }
        if (started) {
            identity.expiresAt = Math.max(identity.expiresAt, now + longest + expirySlackMillis);
        }
    }

    @Override
    public CompletionStage<Void> giveBack(Took took) {
        StoreCall call = took.call();
        try {
            locks.holding(call, () -> {
                for (int k = 0; k < call.keyCount(); k++) {
                    IdentityCounts identity = identities.get(call.key(k));
                    for (int p = call.firstPair(k); identity != null && p < call.firstPair(k + 1); p++) {
                        Limit l = call.limit(p);
                        if (took.taken(p) instanceof Taken.Lease lease) {
                            SeatPart.release(identity, l, lease);
                        } else {
                            WindowPart.giveBack(identity, l, took.taken(p), call.countWeight(p));
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


    @Override
    public CompletionStage<Void> resetAll(KeyCodec codec) {
        for (String key : identities.keySet()) {
            if (codec.isCounts(key)) {
                synchronized (locks.of(key)) {
                    identities.remove(key);
                }
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
