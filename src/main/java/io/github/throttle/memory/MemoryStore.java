package io.github.throttle.memory;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;

import java.time.InstantSource;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The embedded store: the rules of the Redis script ({@code sliding-window.lua}), applied in this JVM.
 *
 * <p>Keys are guarded by striped locks taken in index order, so a call over several keys is atomic and
 * cannot deadlock. An identity whose weight has all left its longest window is evicted by a sweep that
 * runs (off the caller's thread) when the map has doubled since the last sweep or a sweep interval of
 * store time has passed; memory stays proportional to the identities active within their windows.
 */
public final class MemoryStore implements Store {

    private static final int STRIPES = 256;
    private static final long SWEEP_INTERVAL_MILLIS = 10_000;

    private final InstantSource clock;
    private final long expirySlackMillis;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile long nextSweepAt = Long.MIN_VALUE;
    private volatile int sweepAtSize = 1024;

    public MemoryStore(InstantSource clock) {
        this(clock, 0);
    }

    /** @param expirySlackMillis kept after an identity's last weight leaves its window (tests) */
    public MemoryStore(InstantSource clock, long expirySlackMillis) {
        this.clock = clock;
        this.expirySlackMillis = expirySlackMillis;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
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
        int keys = call.keyCount();
        int[] locks = stripesOf(call, keys);
        for (int s : locks) {
            stripes[s].lock();
        }
        try {
            return decideLocked(call, now, keys);
        } finally {
            for (int i = locks.length - 1; i >= 0; i--) {
                stripes[locks[i]].unlock();
            }
            maybeSweep(now);
        }
    }

    private int[] stripesOf(StoreCall call, int keys) {
        int[] s = new int[keys];
        for (int i = 0; i < keys; i++) {
            s[i] = stripe(call.key(i));
        }
        if (keys > 1) {
            Arrays.sort(s);
            int u = 1;
            for (int i = 1; i < keys; i++) {
                if (s[i] != s[u - 1]) {
                    s[u++] = s[i];
                }
            }
            s = Arrays.copyOf(s, u);
        }
        return s;
    }

    private static int stripe(String key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (STRIPES - 1);
    }

    private StoreReply decideLocked(StoreCall call, long now, int keys) {
        // first pass reads only: like the script, a call that writes nothing changes nothing
        int pairs = call.pairCount();
        Window[] windows = new Window[pairs];
        long[] b = new long[pairs];
        long[] at = new long[pairs];
        long[] used = new long[pairs];
        long[] head = new long[pairs];
        int[] gone = new int[pairs];
        boolean allowed = true;
        Entry[] byKey = new Entry[keys];
        for (int i = 0; i < keys; i++) {
            Entry e = entries.get(call.key(i));
            byKey[i] = e;
            for (int p = call.firstPair(i); p < call.firstPair(i + 1); p++) {
                Limit l = call.limit(p);
                Window w = e == null ? null : e.window(l.tag());
                long block = Math.floorDiv(now, l.precisionMillis());
                long when = now;
                if (w != null && w.t > 0) {
                    if (block < w.n) {
                        // the clock went back: keep counting in the newest sub-bucket
                        block = w.n;
                        when = w.n * l.precisionMillis();
                    }
                    long trim = block - l.blocks() + 1;
                    if (w.n >= trim) {
                        windows[p] = w;
                        gone[p] = w.leaving(trim);
                        used[p] = w.t - w.weightOfOldest(gone[p]);
                        head[p] = w.block(gone[p]);
                    }
                }
                b[p] = block;
                at[p] = when;
                if (used[p] + call.weight(p) > l.limit()) {
                    allowed = false;
                }
            }
        }

        if (allowed && call.record()) {
            for (int i = 0; i < keys; i++) {
                Entry e = byKey[i];
                if (e == null) {
                    e = new Entry();
                    entries.put(call.key(i), e);
                    byKey[i] = e;
                }
                boolean fresh = false;
                long ends = 0;
                for (int p = call.firstPair(i); p < call.firstPair(i + 1); p++) {
                    Limit l = call.limit(p);
                    Window w = windows[p];
                    if (w == null) {
                        w = e.window(l.tag());
                        if (w == null) {
                            w = e.add(l.tag());
                        }
                        w.clear();
                        windows[p] = w;
                    } else {
                        w.drop(gone[p]);
                    }
                    long weight = call.weight(p);
                    if (w.t == 0) {
                        w.h = b[p];
                        w.n = b[p];
                        w.c = weight;
                        fresh = true;
                    } else if (b[p] == w.n) {
                        w.c += weight;
                    } else {
                        w.close(b[p]);
                        w.c = weight;
                        fresh = true;
                    }
                    w.t += weight;
                    used[p] = w.t;
                    head[p] = w.h;
                    gone[p] = 0;
                    ends = Math.max(ends, (w.n + l.blocks()) * l.precisionMillis() - now);
                }
                if (fresh) {
                    e.expiresAt = Math.max(e.expiresAt, now + ends + expirySlackMillis);
                }
            }
        }

        long[] figures = new long[pairs * 3];
        for (int p = 0; p < pairs; p++) {
            Limit l = call.limit(p);
            long weight = call.weight(p);
            figures[p * 3] = Math.max(0, l.limit() - used[p]);
            if (!allowed && used[p] + weight > l.limit()) {
                long block = windows[p].blockFreeing(gone[p], used[p] + weight - l.limit());
                figures[p * 3 + 1] = (block + l.blocks()) * l.precisionMillis() - at[p];
                figures[p * 3 + 2] = 1;
            } else if (used[p] > 0) {
                figures[p * 3 + 1] = (head[p] + l.blocks()) * l.precisionMillis() - at[p];
            }
        }
        return new StoreReply(allowed, figures);
    }

    @Override
    public CompletionStage<Void> reset(String... keys) {
        for (String key : keys) {
            ReentrantLock lock = stripes[stripe(key)];
            lock.lock();
            try {
                entries.remove(key);
            } finally {
                lock.unlock();
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Number of identities held (for tests and figures). */
    public int size() {
        return entries.size();
    }

    /** Removes every identity whose counted weight has all left its windows by {@code now}. */
    public int evictExpired(long now) {
        int removed = 0;
        for (var it = entries.entrySet().iterator(); it.hasNext(); ) {
            var en = it.next();
            if (en.getValue().expiresAt <= now) {
                ReentrantLock lock = stripes[stripe(en.getKey())];
                lock.lock();
                try {
                    if (en.getValue().expiresAt <= now && entries.remove(en.getKey(), en.getValue())) {
                        removed++;
                    }
                } finally {
                    lock.unlock();
                }
            }
        }
        return removed;
    }

    private void maybeSweep(long now) {
        if ((now >= nextSweepAt || entries.size() >= sweepAtSize) && sweeping.compareAndSet(false, true)) {
            nextSweepAt = now + SWEEP_INTERVAL_MILLIS;
            CompletableFuture.runAsync(() -> {
                try {
                    evictExpired(clock.millis());
                    sweepAtSize = Math.max(1024, entries.size() * 2);
                } finally {
                    sweeping.set(false);
                }
            });
        }
    }

    @Override
    public String describe() {
        return "embedded in-memory store";
    }

    @Override
    public void close() {
        entries.clear();
    }

    /** One identity: its windows, found by tag (a bucket has few). */
    private static final class Entry {
        long expiresAt;
        Window[] windows = new Window[0];

        Window window(String tag) {
            for (Window w : windows) {
                if (w.tag.equals(tag)) {
                    return w;
                }
            }
            return null;
        }

        Window add(String tag) {
            Window w = new Window(tag);
            windows = Arrays.copyOf(windows, windows.length + 1);
            windows[windows.length - 1] = w;
            return w;
        }
    }

    /**
     * One window of one identity: weight t in sub-buckets h..n; n holds c, older ones sit in a queue of
     * (block, weight) pairs in increasing block order.
     */
    private static final class Window {
        final String tag;
        long t;
        long h;
        long n;
        long c;
        private long[] older = EMPTY;
        private int first;
        private int count;

        private static final long[] EMPTY = new long[0];

        Window(String tag) {
            this.tag = tag;
        }

        void clear() {
            t = 0;
            count = 0;
            first = 0;
        }

        private int at(int i) {
            return (first + i) % (older.length / 2);
        }

        /** How many of the oldest sub-buckets are before {@code trim} (the newest one never is). */
        int leaving(long trim) {
            int i = 0;
            while (i < count && older[at(i) * 2] < trim) {
                i++;
            }
            return i;
        }

        /** Weight of the {@code i} oldest sub-buckets. */
        long weightOfOldest(int i) {
            long sum = 0;
            for (int j = 0; j < i; j++) {
                sum += older[at(j) * 2 + 1];
            }
            return sum;
        }

        /** The block of the {@code i}-th oldest sub-bucket; {@code n} past the queue. */
        long block(int i) {
            return i < count ? older[at(i) * 2] : n;
        }

        /** Forgets the {@code i} oldest sub-buckets. */
        void drop(int i) {
            t -= weightOfOldest(i);
            first = count == i ? 0 : at(i);
            count -= i;
            h = block(0);
        }

        /** Moves the newest sub-bucket into the queue and starts sub-bucket {@code b}. */
        void close(long b) {
            if (count * 2 == older.length) {
                long[] grown = new long[Math.max(4, older.length * 2)];
                for (int i = 0; i < count; i++) {
                    int from = (first + i) % (older.length / 2);
                    grown[i * 2] = older[from * 2];
                    grown[i * 2 + 1] = older[from * 2 + 1];
                }
                older = grown;
                first = 0;
            }
            int slot = (first + count) % (older.length / 2);
            older[slot * 2] = n;
            older[slot * 2 + 1] = c;
            count++;
            n = b;
        }

        /** Walking from the {@code skip}-th oldest, the sub-bucket whose leaving frees at least {@code need}. */
        long blockFreeing(int skip, long need) {
            long freed = 0;
            for (int i = skip; i < count; i++) {
                freed += older[at(i) * 2 + 1];
                if (freed >= need) {
                    return older[at(i) * 2];
                }
            }
            return n;
        }
    }
}
