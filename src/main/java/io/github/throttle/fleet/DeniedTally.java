package io.github.throttle.fleet;

import io.github.throttle.ThrottleAdmin.Denied;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.SharedState;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who is denied most in each bucket over the last minute, over every instance. Each instance counts denials
 * (and would-deny calls) per bucket in {@link #SLOT}-long slots, in a {@link SpaceSaving} sketch of
 * {@link #CAPACITY} identities, and adds what it counted to the store's counters of that slot at least once
 * per {@link #FLUSH} ({@code <prefix>::denied:<bucket>:<slot>}, expiring once the slot is a minute old). The
 * top is the sum of the last {@link #SLOTS} slots. Memory on an instance: at most two sketches per bucket
 * with denials (the slot being counted and the one being added); in the store, per bucket and slot, at most
 * {@link #CAPACITY} identities per instance.
 */
final class DeniedTally {

    static final long SLOT = 5_000;
    static final int SLOTS = 12;
    static final int CAPACITY = 128;
    static final Duration FLUSH = Duration.ofSeconds(1);
    /** A slot's counters outlive the minute they are summed over. */
    private static final long TTL = (SLOTS + 2) * SLOT;

    private record BucketSlot(String bucket, long slot) {
    }

    private final SharedState store;
    private final KeyCodec codec;
    private final InstantSource clock;
    private final Map<BucketSlot, SpaceSaving> counting = new ConcurrentHashMap<>();

    DeniedTally(SharedState store, KeyCodec codec, InstantSource clock) {
        this.store = store;
        this.codec = codec;
        this.clock = clock;
    }

    /** Counts one denied call of {@code identity} in {@code bucket}. */
    void record(String bucket, String identity) {
        BucketSlot at = new BucketSlot(bucket, Math.floorDiv(clock.millis(), SLOT));
        // a sketch closed by a flush meanwhile counts nothing: the next one does
        while (!counting.computeIfAbsent(at, k -> new SpaceSaving(CAPACITY)).add(identity)) {
            Thread.yield();
        }
    }

    /** Adds what was counted to the store's counters; what a failing store does not take is lost. */
    CompletionStage<Void> flush() {
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (BucketSlot at : List.copyOf(counting.keySet())) {
            SpaceSaving sketch = counting.remove(at);
            Map<String, Long> counts = sketch == null ? Map.of() : sketch.close();
            if (!counts.isEmpty()) {
                sent.add(store.addShared(key(at.bucket(), at.slot()), counts, TTL).toCompletableFuture());
            }
        }
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new));
    }

    /** The store's counters of the last minute, summed; the caller flushes first to see its own. */
    CompletionStage<List<Denied>> top(String bucket, int n) {
        long now = Math.floorDiv(clock.millis(), SLOT);
        Map<String, Long> sum = new HashMap<>();
        CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
        for (long slot = now - SLOTS + 1; slot <= now; slot++) {
            CompletionStage<Map<String, String>> read = store.readShared(key(bucket, slot));
            all = all.thenCombine(read, (x, fields) -> {
                synchronized (sum) {
                    fields.forEach((identity, count) -> sum.merge(identity, Long.parseLong(count), Long::sum));
                }
                return null;
            });
        }
        return all.thenApply(x -> sum.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(n).map(e -> new Denied(e.getKey(), e.getValue())).toList());
    }

    private String key(String bucket, long slot) {
        return codec.sharedKey("denied", bucket) + ":" + slot;
    }
}
