package io.github.throttle.engine;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link SharedState} does, the embedded store's and Redis's alike: a write moves the version on by
 * one (from a first version that depends on the store), a reader gets the fields written after the version it holds (each once, as it is now), or every field
 * when it holds none or is too far behind; counters add up.
 */
public abstract class SharedStateContract {

    protected abstract SharedState shared();

    private int keys;

    /** A key no other test uses, as the key codec writes shared keys. */
    protected String freshKey() {
        return new KeyCodec("test").sharedKey("settings-" + getClass().getSimpleName() + "-" + (++keys) + "-" + System.nanoTime());
    }

    protected long write(String key, String field, String value) {
        return shared().writeShared(key, field, value).toCompletableFuture().join();
    }

    protected SharedChanges since(String key, long held) {
        return shared().sharedChanges(key, held).toCompletableFuture().join();
    }

    private static Map<String, String> fields(Object... fieldsAndValues) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            m.put((String) fieldsAndValues[i], (String) fieldsAndValues[i + 1]);
        }
        return m;
    }

    @Test
    void settingsNeverWrittenAreVersionZeroAndEmpty() {
        String key = freshKey();
        assertEquals(SharedChanges.none(0), since(key, 0));
    }

    /**
     * The first write makes the settings' first version: above any version held before they existed (1 for the
     * embedded store; Redis starts a hash made anew at its time in microseconds, above any version of a hash it
     * lost); each write after moves it on by one.
     */
    @Test
    void eachWriteMovesTheVersionOnByOne() {
        String key = freshKey();
        long first = write(key, "key:a", "pro|");
        assertTrue(first >= 1, "first version " + first);
        assertEquals(first + 1, write(key, "key:b", "blocked|"));
        assertEquals(first + 2, write(key, "key:a", null));
    }

    @Test
    void aFirstReadGetsEveryFieldWithTheVersion() {
        String key = freshKey();
        long first = write(key, "key:a", "pro|");
        write(key, "limits||search", "5/60000/60000");
        write(key, "key:b", "blocked|");
        long last = write(key, "key:b", null);
        assertEquals(first + 3, last);
        assertEquals(new SharedChanges(last, true, fields("key:a", "pro|", "limits||search", "5/60000/60000", SharedState.VERSION,
                Long.toString(last))), since(key, 0));
    }

    @Test
    void aReaderGetsOnlyTheFieldsWrittenAfterItsVersionEachOnceAsTheyAreNow() {
        String key = freshKey();
        write(key, "key:a", "pro|");
        long held = write(key, "key:b", "pro|");
        write(key, "key:c", "blocked|");
        write(key, "key:c", "unlimited|");
        write(key, "key:a", null);
        long last = write(key, "user:ann", "blocked|");
        SharedChanges changes = since(key, held);
        assertEquals(new SharedChanges(last, false, fields("key:c", "unlimited|", "key:a", null, "user:ann", "blocked|")), changes);
        assertEquals(SharedChanges.none(last), since(key, last), "nothing since the version held");
        assertTrue(since(key, last).isEmpty());
    }

    @Test
    void aReaderTooFarBehindGetsEveryField() {
        String key = freshKey();
        long first = write(key, "key:first", "pro|");
        for (int i = 0; i <= SharedState.CHANGES_KEPT; i++) {
            write(key, "key:k" + (i % 3), "plan" + i + "|");
        }
        long version = first + SharedState.CHANGES_KEPT + 1;
        SharedChanges behind = since(key, first);
        assertTrue(behind.every(), "the changes since the first version are no longer all known");
        assertEquals(version, behind.version());
        assertEquals(Map.of("key:first", "pro|", "key:k0", "plan4095|", "key:k1", "plan4096|", "key:k2", "plan4094|",
                SharedState.VERSION, Long.toString(version)), behind.fields(), "every setting, and nothing else");
        SharedChanges recent = since(key, version - 3);
        assertFalse(recent.every(), "the last writes are known");
        assertEquals(fields("key:k0", "plan4095|", "key:k1", "plan4096|", "key:k2", "plan4094|"), recent.fields());
    }

    @Test
    void aReaderAheadOfTheStoreGetsEveryField() {
        String key = freshKey();
        long first = write(key, "key:a", "pro|");
        // say the settings were deleted and written again since this reader read a later version
        SharedChanges changes = since(key, first + 8);
        assertTrue(changes.every());
        assertEquals(fields("key:a", "pro|", SharedState.VERSION, Long.toString(first)), changes.fields());
    }

    @Test
    void countersAddUpFieldByFieldApartFromSettings() {
        String key = new KeyCodec("test").sharedKey("denied", "search-" + System.nanoTime()) + ":1";
        shared().addShared(key, Map.of("key:a", 3L, "ip:192.0.2.1", 1L), 70_000).toCompletableFuture().join();
        shared().addShared(key, Map.of("key:a", 2L), 70_000).toCompletableFuture().join();
        assertEquals(Map.of("key:a", "5", "ip:192.0.2.1", "1"), shared().readShared(key).toCompletableFuture().join());
        assertEquals(Map.of(), shared().readShared(key + "0").toCompletableFuture().join(), "none under another key");
    }
}
