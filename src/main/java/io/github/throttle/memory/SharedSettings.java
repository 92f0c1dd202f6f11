package io.github.throttle.memory;

import io.github.throttle.engine.SharedChanges;
import io.github.throttle.engine.SharedState;

import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The embedded store's shared state ({@link SharedState}): settings field to value under a key, with a version
 * moved on by every write and the field each of the last {@link SharedState#CHANGES_KEPT} writes changed; and
 * shared counters, each key dropped when it expires. Shared by nothing but this instance.
 */
final class SharedSettings {

    /** The settings under one key: fields (the version's included), and the field written at each recent version. */
    private record Settings(Map<String, String> fields, NavigableMap<Long, String> written) {
    }

    private final InstantSource clock;
    private final Map<String, Settings> settings = new HashMap<>();
    private final Map<String, Map<String, String>> counters = new HashMap<>();
    /** When each key of counters expires. */
    private final Map<String, Long> expiries = new HashMap<>();

    SharedSettings(InstantSource clock) {
        this.clock = clock;
    }

    /** Sets one setting ({@code value} null: removes it), moves the version on and remembers the field; the new version. */
    synchronized long write(String key, String field, String value) {
        Settings s = settings.computeIfAbsent(key, k -> new Settings(new HashMap<>(), new TreeMap<>()));
        if (value == null) {
            s.fields().remove(field);
        } else {
            s.fields().put(field, value);
        }
        long version = version(s) + 1;
        s.fields().put(SharedState.VERSION, Long.toString(version));
        s.written().put(version, field);
        s.written().headMap(version - SharedState.CHANGES_KEPT, true).clear();
        return version;
    }

    /** What changed since {@code held}: the fields written since, or every field when they are not all remembered. */
    synchronized SharedChanges changes(String key, long held) {
        Settings s = settings.get(key);
        long version = s == null ? 0 : version(s);
        if (held == version) {
            return SharedChanges.none(version);
        }
        if (s == null || held <= 0 || held > version || s.written().firstKey() > held + 1) {
            return new SharedChanges(version, true, s == null ? Map.of() : s.fields());
        }
        Map<String, String> changed = new HashMap<>();
        for (String field : s.written().tailMap(held, false).values()) {
            changed.put(field, s.fields().get(field));
        }
        return new SharedChanges(version, false, changed);
    }

    private static long version(Settings s) {
        return Long.parseLong(s.fields().getOrDefault(SharedState.VERSION, "0"));
    }

    /** The counters under {@code key}. */
    synchronized Map<String, String> read(String key) {
        dropExpired();
        return Map.copyOf(counters.getOrDefault(key, Map.of()));
    }

    /** Adds to counters under {@code key}, which expires {@code ttlMillis} from now. */
    synchronized void add(String key, Map<String, Long> deltas, long ttlMillis) {
        dropExpired();
        Map<String, String> fields = counters.computeIfAbsent(key, k -> new HashMap<>());
        deltas.forEach((field, delta) -> fields.merge(field, Long.toString(delta), (was, d) -> Long.toString(Long.parseLong(was) + delta)));
        expiries.put(key, clock.millis() + ttlMillis);
    }

    /** Counters live a minute or so: dropping them on the next use bounds them. */
    private void dropExpired() {
        long now = clock.millis();
        expiries.entrySet().removeIf(e -> {
            if (e.getValue() <= now) {
                counters.remove(e.getKey());
                return true;
            }
            return false;
        });
    }
}
