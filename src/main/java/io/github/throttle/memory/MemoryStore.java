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
    /** The tag arrays of {@link Entry}, one per distinct set of windows. */
    private final ConcurrentHashMap<String, String[]> tagSets = new ConcurrentHashMap<>();
    /** Monitors: a holder preempted on a busy machine is waited for by spinning a little before parking. */
    private final Object[] stripes = new Object[STRIPES];
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
            stripes[i] = new Object();
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
        if (keys == 1) {
            // the usual call: one identity, one lock
            try {
                synchronized (stripes[stripe(call.key(0))]) {
                    StoreReply r = call.record() ? recordOne(call, now) : null;
                    return r != null ? r : decideLocked(call, now, 1);
                }
            } finally {
                maybeSweep(now);
            }
        }
        try {
            return lockedFrom(stripesOf(call, keys), 0, call, now, keys);
        } finally {
            maybeSweep(now);
        }
    }

    /** Takes the stripe locks from index {@code i} on, in index order (no deadlock), then decides. */
    private StoreReply lockedFrom(int[] locks, int i, StoreCall call, long now, int keys) {
        if (i == locks.length) {
            return decideLocked(call, now, keys);
        }
        synchronized (stripes[locks[i]]) {
            return lockedFrom(locks, i + 1, call, now, keys);
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

    /**
     * The usual call (one known identity, recorded, allowed, the clock not gone back) without work arrays: a
     * first pass checks, a second applies and reports, finding each window again. Returns null, having changed
     * nothing, for any other call: {@link #decideLocked} takes it.
     */
    private StoreReply recordOne(StoreCall call, long now) {
        Entry e = entries.get(call.key(0));
        if (e == null) {
            return null;
        }
        int pairs = call.pairCount();
        for (int p = 0; p < pairs; p++) {
            Limit l = call.limit(p);
            int w = e.window(l.tag(), p);
            long used = 0;
            if (w >= 0 && e.t(w) > 0) {
                long n = e.n(w);
                long block = l.block(now);
                if (block < n) {
                    return null;
                }
                long trim = block - l.blocks() + 1;
                if (n >= trim) {
                    used = e.t(w) - e.weightOfOldest(w, e.leaving(w, trim));
                }
            }
            if (used + call.weight(p) > l.limit()) {
                return null;
            }
        }
        long[] figures = new long[pairs * 3];
        boolean fresh = false;
        long ends = 0;
        for (int p = 0; p < pairs; p++) {
            Limit l = call.limit(p);
            long block = l.block(now);
            long trim = block - l.blocks() + 1;
            int w = e.window(l.tag(), p);
            if (w < 0) {
                w = e.add(l.tag(), tagSets);
            } else if (e.t(w) > 0 && e.n(w) >= trim) {
                e.drop(w, e.leaving(w, trim));
            } else {
                e.clear(w);
            }
            fresh |= e.record(w, block, call.weight(p));
            long used = e.t(w);
            ends = Math.max(ends, (block + l.blocks()) * l.precisionMillis() - now);
            figures[p * 3] = Math.max(0, l.limit() - used);
            if (used > 0) {
                figures[p * 3 + 1] = (e.h(w) + l.blocks()) * l.precisionMillis() - now;
            }
        }
        if (fresh) {
            e.expiresAt = Math.max(e.expiresAt, now + ends + expirySlackMillis);
        }
        return new StoreReply(true, figures);
    }

    private StoreReply decideLocked(StoreCall call, long now, int keys) {
        // first pass reads only: like the script, a call that writes nothing changes nothing
        int pairs = call.pairCount();
        int[] windows = new int[pairs];
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
                int w = e == null ? -1 : e.window(l.tag(), p - call.firstPair(i));
                windows[p] = -1;
                long block = l.block(now);
                long when = now;
                if (w >= 0 && e.t(w) > 0) {
                    long n = e.n(w);
                    if (block < n) {
                        // the clock went back: keep counting in the newest sub-bucket
                        block = n;
                        when = n * l.precisionMillis();
                    }
                    long trim = block - l.blocks() + 1;
                    if (n >= trim) {
                        windows[p] = w;
                        gone[p] = e.leaving(w, trim);
                        used[p] = e.t(w) - e.weightOfOldest(w, gone[p]);
                        head[p] = e.block(w, gone[p]);
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
                    int w = windows[p];
                    if (w < 0) {
                        w = e.window(l.tag(), p - call.firstPair(i));
                        if (w < 0) {
                            w = e.add(l.tag(), tagSets);
                        }
                        e.clear(w);
                        windows[p] = w;
                    } else {
                        e.drop(w, gone[p]);
                    }
                    fresh |= e.record(w, b[p], call.weight(p));
                    used[p] = e.t(w);
                    head[p] = e.h(w);
                    gone[p] = 0;
                    ends = Math.max(ends, (b[p] + l.blocks()) * l.precisionMillis() - now);
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
                Entry e = byKey[keyOf(call, p)];
                long block = e.blockFreeing(windows[p], gone[p], used[p] + weight - l.limit());
                figures[p * 3 + 1] = (block + l.blocks()) * l.precisionMillis() - at[p];
                figures[p * 3 + 2] = 1;
            } else if (used[p] > 0) {
                figures[p * 3 + 1] = (head[p] + l.blocks()) * l.precisionMillis() - at[p];
            }
        }
        return new StoreReply(allowed, figures);
    }

    private static int keyOf(StoreCall call, int pair) {
        int i = 0;
        while (call.firstPair(i + 1) <= pair) {
            i++;
        }
        return i;
    }

    @Override
    public CompletionStage<Void> reset(String... keys) {
        for (String key : keys) {
            synchronized (stripes[stripe(key)]) {
                entries.remove(key);
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
                synchronized (stripes[stripe(en.getKey())]) {
                    if (en.getValue().expiresAt <= now && entries.remove(en.getKey(), en.getValue())) {
                        removed++;
                    }
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

    /**
     * One identity, laid out for a small heap (a million idle-but-unexpired identities must fit in a few
     * hundred MB): the windows' tags are one array shared by every identity with the same windows, the
     * figures of all windows are one {@code long[]}, and the queues of older sub-buckets exist only once a
     * window has closed a sub-bucket.
     *
     * <p>Window {@code w}: {@code s[3w]} weight counted (t), {@code s[3w+1]} newest sub-bucket (n),
     * {@code s[3w+2]} its weight (c); older sub-buckets holding weight sit in {@code older[w]}, a ring of
     * (block, weight) pairs in increasing block order, starting at {@code q[2w]}, {@code q[2w+1]} long. The
     * oldest sub-bucket holding weight (h) is the ring's first block, else n.
     */
    private static final class Entry {
        private static final long[][] NO_QUEUES = null;

        long expiresAt;
        String[] tags = NO_TAGS;
        long[] s = NO_FIGURES;
        long[][] older = NO_QUEUES;
        int[] q;

        private static final String[] NO_TAGS = new String[0];
        private static final long[] NO_FIGURES = new long[0];

        /**
         * The index of the window with this tag, or -1 (a bucket has few windows). Calls usually list the
         * windows in the order they were added: index {@code hint} is tried first.
         */
        int window(String tag, int hint) {
            String[] t = tags;
            if (hint < t.length && t[hint] == tag) {
                return hint;
            }
            for (int i = 0; i < t.length; i++) {
                // tags come from shared Limit objects: the reference usually matches
                if (t[i] == tag || t[i].equals(tag)) {
                    return i;
                }
            }
            return -1;
        }

        int add(String tag, ConcurrentHashMap<String, String[]> tagSets) {
            int w = tags.length;
            String[] grown = Arrays.copyOf(tags, w + 1);
            grown[w] = tag;
            // one array per distinct set of windows, shared by every identity that has them
            tags = tagSets.computeIfAbsent(String.join("\n", grown), x -> grown);
            s = Arrays.copyOf(s, (w + 1) * 3);
            if (older != null) {
                older = Arrays.copyOf(older, w + 1);
                q = Arrays.copyOf(q, (w + 1) * 2);
            }
            return w;
        }

        long t(int w) {
            return s[w * 3];
        }

        long n(int w) {
            return s[w * 3 + 1];
        }

        private int count(int w) {
            return older == null || older[w] == null ? 0 : q[w * 2 + 1];
        }

        /** The oldest sub-bucket holding weight. */
        long h(int w) {
            return block(w, 0);
        }

        void clear(int w) {
            s[w * 3] = 0;
            if (older != null && older[w] != null) {
                q[w * 2] = 0;
                q[w * 2 + 1] = 0;
            }
        }

        private int at(int w, int i) {
            long[] o = older[w];
            // q[2w] and i are both below the ring's length: no division needed
            int j = q[w * 2] + i;
            int length = o.length / 2;
            return j >= length ? j - length : j;
        }

        /** How many of the oldest sub-buckets are before {@code trim} (the newest one never is). */
        int leaving(int w, long trim) {
            int count = count(w);
            int i = 0;
            while (i < count && older[w][at(w, i) * 2] < trim) {
                i++;
            }
            return i;
        }

        /** Weight of the {@code i} oldest sub-buckets. */
        long weightOfOldest(int w, int i) {
            long sum = 0;
            for (int j = 0; j < i; j++) {
                sum += older[w][at(w, j) * 2 + 1];
            }
            return sum;
        }

        /** The block of the {@code i}-th oldest sub-bucket; n past the queue. */
        long block(int w, int i) {
            return i < count(w) ? older[w][at(w, i) * 2] : s[w * 3 + 1];
        }

        /** Forgets the {@code i} oldest sub-buckets. */
        void drop(int w, int i) {
            if (i == 0) {
                return;
            }
            s[w * 3] -= weightOfOldest(w, i);
            int count = q[w * 2 + 1];
            q[w * 2] = count == i ? 0 : at(w, i);
            q[w * 2 + 1] = count - i;
        }

        /**
         * Records {@code weight} in sub-bucket {@code b} of window {@code w} (whose leaving sub-buckets are gone);
         * returns whether a sub-bucket started, which may move the identity's expiry.
         */
        boolean record(int w, long b, long weight) {
            int o = w * 3;
            boolean started = true;
            if (s[o] == 0) {
                // nothing counted: the window starts again at this sub-bucket (older ones are unlinked)
                clear(w);
                s[o + 1] = b;
                s[o + 2] = weight;
            } else if (b == s[o + 1]) {
                s[o + 2] += weight;
                started = false;
            } else {
                close(w, b);
                s[o + 2] = weight;
            }
            s[o] += weight;
            return started;
        }

        /** Moves the newest sub-bucket into the queue and starts sub-bucket {@code b}. */
        void close(int w, long b) {
            if (older == null) {
                older = new long[tags.length][];
                q = new int[tags.length * 2];
            }
            long[] o = older[w];
            int count = count(w);
            if (o == null || count * 2 == o.length) {
                long[] grown = new long[Math.max(4, o == null ? 0 : o.length * 2)];
                for (int i = 0; i < count; i++) {
                    int from = at(w, i);
                    grown[i * 2] = o[from * 2];
                    grown[i * 2 + 1] = o[from * 2 + 1];
                }
                older[w] = grown;
                q[w * 2] = 0;
                o = grown;
            }
            int slot = q[w * 2] + count;
            if (slot >= o.length / 2) {
                slot -= o.length / 2;
            }
            o[slot * 2] = s[w * 3 + 1];
            o[slot * 2 + 1] = s[w * 3 + 2];
            q[w * 2 + 1] = count + 1;
            s[w * 3 + 1] = b;
        }

        /** Walking from the {@code skip}-th oldest, the sub-bucket whose leaving frees at least {@code need}. */
        long blockFreeing(int w, int skip, long need) {
            long freed = 0;
            int count = count(w);
            for (int i = skip; i < count; i++) {
                freed += older[w][at(w, i) * 2 + 1];
                if (freed >= need) {
                    return older[w][at(w, i) * 2];
                }
            }
            return s[w * 3 + 1];
        }
    }
}
