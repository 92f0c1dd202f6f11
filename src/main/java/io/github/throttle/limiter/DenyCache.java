package io.github.throttle.limiter;

import io.github.throttle.Decision;
import io.github.throttle.Decisions;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers denied calls, so that calls the store would certainly deny are answered here, without a store
 * call. A call denied with a retry-after of {@code R} ms, sent to the store at {@code T}, is remembered for
 * its exact pairs (keys and limits) and plan until {@code T + R}: until then every call with the same pairs and
 * a weight at least as large (per pair) is denied by the store too, since weight only accumulates between
 * resets and give-backs, and the violated weight cannot leave its window earlier. Buckets whose weight can
 * come back (a target that gives successes back counts in them) are never remembered; a reset or a
 * programmatic give-back through this instance forgets what it touches.
 *
 * <p>With leases ({@code throttle.leases=auto}) a lease's give-back may free weight before that: a denial is then
 * remembered no longer than the store says the key's leases live, or, for a call the store answered without saying
 * it, than a lease lives ({@code throttle.leases.period}): every lease outstanding when the store denied the call
 * ends by then (every instance has the same period).
 *
 * <p>Bounded: when full, expired entries go first, then the entries that end soonest.
 */
final class DenyCache {

    private final int size;
    private final InstantSource clock;
    private final Map<String, Entry> entries;

    /** A remembered denial: the store's decision, the weights it was denied for, when it was sent and until when it holds. */
    private record Entry(Decision decision, long[] weights, long sentAt, long until, String[] keys) {
    }

    /** @param size at most this many denials are remembered; 0 = none */
    DenyCache(int size, InstantSource clock) {
        this.size = size;
        this.clock = clock;
        this.entries = new ConcurrentHashMap<>(Math.min(size, 1024));
    }

    boolean enabled() {
        return size > 0;
    }

    /** The time to note as the moment a call was sent to the store. */
    long now() {
        return clock.millis();
    }

    /**
     * The store's certain answer to {@code call} on {@code plan}, if a remembered denial covers it: the same
     * figures, with every wait counted down to now; null otherwise.
     */
    Decision denied(StoreCall call, String plan) {
        if (entries.isEmpty()) {
            // nothing remembered: no key to make
            return null;
        }
        String key = key(call, plan);
        Entry e = entries.get(key);
        if (e == null) {
            return null;
        }
        long now = clock.millis();
        if (now >= e.until()) {
            entries.remove(key, e);
            return null;
        }
        if (now + call.maxWaitMillis() >= e.until()) {
            // a call that may wait this long may fit by then: only the store can tell
            return null;
        }
        for (int p = 0; p < call.pairCount(); p++) {
            if (call.countWeight(p) < e.weights()[p]) {
                return null;
            }
        }
        long elapsed = Math.max(0, now - e.sentAt());
        List<Decision.Quota> quotas = new ArrayList<>(e.decision().quotas().size());
        for (Decision.Quota q : e.decision().quotas()) {
            long wait = q.violated() ? Math.max(1, q.resetMillis() - elapsed) : Math.max(0, q.resetMillis() - elapsed);
            quotas.add(new Decision.Quota(q.policy(), q.limit(), q.windowMillis(), q.remaining(), wait, q.violated()));
        }
        return Decisions.onPlan(Decisions.of(false, quotas, Decisions.policies(e.decision())), plan);
    }

    /**
     * Remembers a denial the store answered to {@code call}, sent at {@code sentAt}, until its retry-after, and no
     * longer than {@code certainMillis} (leases may give weight back before).
     */
    synchronized void remember(StoreCall call, String plan, Decision denied, long sentAt, long certainMillis) {
        if (denied.allowed() || denied.isUnmetered() || denied.retryAfterMillis() <= 0) {
            return;
        }
        long[] weights = new long[call.pairCount()];
        for (int p = 0; p < weights.length; p++) {
            weights[p] = call.countWeight(p);
        }
        if (entries.size() >= size) {
            makeRoom();
        }
        entries.put(key(call, plan), new Entry(denied, weights, sentAt, sentAt + Math.min(denied.retryAfterMillis(), certainMillis), call.keys()));
    }

    /** Forgets every denial of a call that touched one of these keys. */
    void forget(String... keys) {
        List<String> forgotten = List.of(keys);
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            for (String k : e.keys()) {
                if (forgotten.contains(k)) {
                    it.remove();
                    break;
                }
            }
        }
    }

    /** Forgets every denial. */
    void clear() {
        entries.clear();
    }

    /** Forgets every denial of a call that touched a key starting with {@code head} (a bucket). */
    void forgetBucket(String head) {
        entries.values().removeIf(e -> {
            for (String k : e.keys()) {
                if (k.startsWith(head)) {
                    return true;
                }
            }
            return false;
        });
    }

    private void makeRoom() {
        long now = clock.millis();
        entries.values().removeIf(e -> now >= e.until());
        // still full: drop the quarter that ends soonest (they are the least use)
        if (entries.size() >= size) {
            List<Map.Entry<String, Entry>> all = new ArrayList<>(entries.entrySet());
            all.sort((a, b) -> Long.compare(a.getValue().until(), b.getValue().until()));
            for (int i = 0; i < Math.max(1, all.size() / 4); i++) {
                entries.remove(all.get(i).getKey(), all.get(i).getValue());
            }
        }
    }

    private static String key(StoreCall call, String plan) {
        StringBuilder b = new StringBuilder(64 * call.pairCount());
        b.append(plan == null ? "" : plan);
        for (int k = 0; k < call.keyCount(); k++) {
            b.append('\n').append(call.key(k));
            for (int p = call.firstPair(k); p < call.firstPair(k + 1); p++) {
                Limit l = call.limit(p);
                b.append('\t').append(l.limit()).append('/').append(l.durationMillis()).append('/').append(l.precisionMillis())
                        .append('/').append(l.policy());
            }
        }
        return b.toString();
    }
}
