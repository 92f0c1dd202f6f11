package io.github.throttle.memory;

import io.github.throttle.engine.Store;

import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/**
 * The embedded store's shared settings ({@link Store#readShared}): field to value under a key, with a version
 * moved on by every write; and its shared counters ({@link Store#addShared}), each key dropped when it expires.
 * Shared by nothing but this instance.
 */
final class SharedSettings {

    private final InstantSource clock;
    private final Map<String, Map<String, String>> byKey = new HashMap<>();
    /** When each key of counters expires. */
    private final Map<String, Long> expiries = new HashMap<>();

    SharedSettings(InstantSource clock) {
        this.clock = clock;
    }

    synchronized Map<String, String> read(String key) {
        dropExpired();
        return Map.copyOf(byKey.getOrDefault(key, Map.of()));
    }

    synchronized String version(String key) {
        return byKey.getOrDefault(key, Map.of()).getOrDefault(Store.VERSION, "");
    }

    /** Sets one setting ({@code value} null: removes it), then moves the version on. */
    synchronized void write(String key, String field, String value) {
        Map<String, String> fields = byKey.computeIfAbsent(key, k -> new HashMap<>());
        if (value == null) {
            fields.remove(field);
        } else {
            fields.put(field, value);
        }
        fields.merge(Store.VERSION, "1", (was, one) -> Long.toString(Long.parseLong(was) + 1));
    }

    /** Adds to counters under {@code key}, which expires {@code ttlMillis} from now. */
    synchronized void add(String key, Map<String, Long> deltas, long ttlMillis) {
        dropExpired();
        Map<String, String> fields = byKey.computeIfAbsent(key, k -> new HashMap<>());
        deltas.forEach((field, delta) -> fields.merge(field, Long.toString(delta), (was, d) -> Long.toString(Long.parseLong(was) + delta)));
        expiries.put(key, clock.millis() + ttlMillis);
    }

    /** Counters live a minute or so: dropping them on the next use bounds them. */
    private void dropExpired() {
        long now = clock.millis();
        expiries.entrySet().removeIf(e -> {
            if (e.getValue() <= now) {
                byKey.remove(e.getKey());
                return true;
            }
            return false;
        });
    }
}
