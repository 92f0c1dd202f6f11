package io.github.throttle.engine;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What every instance using one store shares besides counts: settings changed while running (assignments,
 * overrides), read by each instance as changes since the version it holds, and counters that only matter for a
 * while (the denials of a few seconds). The embedded store keeps them for this instance alone.
 */
public interface SharedState {

    /** The field holding the version of shared settings: it moves on by one with every write. */
    String VERSION = "#version";

    /** How many of the last writes a store remembers field by field; an instance further behind reads every field. */
    int CHANGES_KEPT = 4096;

    /**
     * Sets one shared setting ({@code value} null: removes it) and moves the version on, as one step; kept
     * without expiry. Completes with the version this write made.
     */
    CompletionStage<Long> writeShared(String key, String field, String value);

    /**
     * What changed in the settings under {@code key} since version {@code held} (0: none held): nothing when
     * {@code held} is the version; else the fields written since, or every field when the store no longer knows
     * what changed since {@code held} (too far behind, a first read, a write by an earlier release).
     */
    CompletionStage<SharedChanges> sharedChanges(String key, long held);

    /**
     * Adds {@code deltas} to the counters shared under {@code key} (field by field; a missing one counts from 0),
     * and makes the key expire {@code ttlMillis} after this write.
     */
    CompletionStage<Void> addShared(String key, Map<String, Long> deltas, long ttlMillis);

    /** The counters under {@code key}, field by field; empty when none. */
    CompletionStage<Map<String, String>> readShared(String key);

    /** A short description for logs (never with credentials). */
    String describe();

    /** A failure of this store, described for a log line (never with credentials). */
    default String describe(Throwable failure) {
        String m = failure.getMessage();
        return failure.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    /** What a store that keeps nothing shared answers: every call fails, saying so. */
    static SharedState none(String store) {
        return new SharedState() {
            private <T> CompletionStage<T> refused() {
                return CompletableFuture.failedFuture(new UnsupportedOperationException(store + " keeps no shared settings"));
            }

            @Override
            public CompletionStage<Long> writeShared(String key, String field, String value) {
                return refused();
            }

            @Override
            public CompletionStage<SharedChanges> sharedChanges(String key, long held) {
                return refused();
            }

            @Override
            public CompletionStage<Void> addShared(String key, Map<String, Long> deltas, long ttlMillis) {
                return refused();
            }

            @Override
            public CompletionStage<Map<String, String>> readShared(String key) {
                return refused();
            }

            @Override
            public String describe() {
                return store;
            }
        };
    }
}
