package io.github.throttle.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where counts live. Every implementation applies the same rules (docs/how-it-works.md, "Counting
 * semantics"): a store call is atomic over all its keys and limits, a denied call records nothing, and idle
 * keys expire.
 */
public interface Store extends AutoCloseable {

    /** Decides one call; completes exceptionally when the store cannot answer. */
    CompletionStage<StoreReply> decide(StoreCall call);

    /**
     * Gives back what an allowed call took, or a part of it ({@link Took}): each pair's weight is taken from the
     * sub-bucket it was counted or reserved in if that still holds weight in the window (never more than it holds),
     * so counts are as if the call had not been recorded; a sub-bucket that has left the window is not touched. A
     * seat is released: its lease, if it is still held. Every give-back goes through here, whoever asks for it.
     */
    CompletionStage<Void> giveBack(Took took);

    /**
     * Leases up to {@code most} of {@code call}'s weight for its one key (every pair the same weight; no seats, no
     * wait), living at most {@code lifeMillis}: recorded as a call of the weight granted, at least the call's own and
     * at most half of what every window has left, or denied as the call itself when less than its weight is left
     * ({@link Leased}). {@code call}'s lease
     * id is the generation the key gets when it has none. What the lease does not use goes back through {@link
     * #giveBack}, into that generation only. Stores that cannot lease complete exceptionally.
     */
    default CompletionStage<Leased> lease(StoreCall call, long most, long lifeMillis) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(describe() + " does not lease"));
    }

    /** Forgets everything counted for these keys. */
    CompletionStage<Void> reset(String... keys);

    /**
     * Forgets every count of every bucket and identity under the codec's prefix; settings shared by every instance
     * (assignments, overrides) stay.
     */
    CompletionStage<Void> resetAll(KeyCodec codec);

    /** What kind of store this is, for metrics and health: {@code memory}, {@code redis}, {@code redis-cluster}, {@code redis-sentinel}. */
    String kind();

    /**
     * Gets ready to decide, in the background: connects and loads what decisions need (Redis: the script, on
     * every primary), so that the first call pays neither. Completes exceptionally when the store cannot be
     * reached, which only means that the first call connects.
     */
    default CompletionStage<Void> prepare() {
        return CompletableFuture.completedFuture(null);
    }

    /** A short description for logs (never with credentials). */
    String describe();

    /** A failure of this store, described for a log line (never with credentials). */
    default String describe(Throwable failure) {
        String m = failure.getMessage();
        return failure.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    /**
     * How loudly a failure of this store is logged: {@code ERROR} for what only an operator can fix (a missing
     * permission, a full store, an untrusted certificate), {@code WARNING} for what may pass by itself.
     */
    default System.Logger.Level severity(Throwable failure) {
        return System.Logger.Level.WARNING;
    }

    @Override
    void close();
}
