package io.github.throttle.memory;

import io.github.throttle.engine.Store;

import java.util.HashMap;
import java.util.Map;

/**
 * The embedded store's shared settings ({@link Store#readShared}): field to value under a key, with a version
 * moved on by every write. Shared by nothing but this instance.
 */
final class SharedSettings {

    private final Map<String, Map<String, String>> byKey = new HashMap<>();

    synchronized Map<String, String> read(String key) {
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
}
