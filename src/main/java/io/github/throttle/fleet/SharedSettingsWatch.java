package io.github.throttle.fleet;

import io.github.throttle.engine.SharedChanges;
import io.github.throttle.engine.SharedState;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The settings every instance shares through the store under one key: assignments, overrides and the mark of
 * the last reset. Twice a second this instance asks the store, in one call, for what changed since the version
 * it holds, and hands that over (every field on a first read, or when the store no longer knows what changed
 * since); a change made here is handed over as soon as the store keeps it, without reading anything. A call only
 * reads what was made of them in memory. While the store fails, what was read last stays in force. Its thread
 * also runs the other periodic work of the fleet.
 */
final class SharedSettingsWatch implements AutoCloseable {

    /** How often the store is asked for a change. */
    static final Duration POLL = Duration.ofMillis(500);

    private final SharedState store;
    private final String key;
    private final Duration timeout;
    private final Consumer<SharedChanges> onChange;
    private final ScheduledExecutorService thread;
    /** The version of the settings applied here; 0: none read yet. */
    private long version;

    /**
     * Reads the settings once before returning, so that an instance starts with those in force.
     *
     * @param key      the store key holding the settings
     * @param onChange given what changed whenever the version changed, by one thread at a time
     * @param timeout  bounds each store call
     */
    SharedSettingsWatch(SharedState store, String key, Duration timeout, Consumer<SharedChanges> onChange) {
        this.store = store;
        this.key = key;
        this.timeout = timeout;
        this.onChange = onChange;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "throttle-shared-settings");
            t.setDaemon(true);
            return t;
        });
        poll();
        thread.scheduleWithFixedDelay(this::poll, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code task} every {@code period} on this watch's thread. */
    void every(Duration period, Runnable task) {
        thread.scheduleWithFixedDelay(task, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Sets one field ({@code value} null: removes it) for every instance, then applies the change here at once.
     *
     * @throws IllegalStateException when the store cannot keep it
     */
    synchronized void write(SharedChange change) {
        long written = wait(store.writeShared(key, change.field(), change.value()), "keep " + change.what());
        Map<String, String> field = new java.util.HashMap<>();
        field.put(change.field(), change.value());
        onChange.accept(new SharedChanges(written, false, field));
        if (written == version + 1) {
            version = written;
        } else {
            // another instance wrote meanwhile: what changed since the version held (this change again, as it is now)
            poll();
        }
    }

    /**
     * Waits for a store call, at most the timeout; a failure becomes an {@link IllegalStateException}.
     *
     * @param doing what the call does, for the message of a failure: {@code keep ...}, {@code read ...}
     */
    <T> T wait(java.util.concurrent.CompletionStage<T> call, String doing) {
        return wait(call, doing, timeout);
    }

    /** As {@link #wait(java.util.concurrent.CompletionStage, String)}, waiting at most {@code bound}. */
    <T> T wait(java.util.concurrent.CompletionStage<T> call, String doing, java.time.Duration bound) {
        try {
            return call.toCompletableFuture().get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the " + store.describe() + " was asked to " + doing, e);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("the " + store.describe() + " could not " + doing + ": " + store.describe(cause), cause);
        }
    }

    /** Applies what changed since the version held; a store that fails leaves everything as it is. */
    synchronized void poll() {
        try {
            SharedChanges changes = store.sharedChanges(key, version).toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!changes.isEmpty()) {
                onChange.accept(changes);
            }
            version = changes.version();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // the store fails: the last known settings stay in force, and the decisions say so in the log
        }
    }

    /** The version of the settings applied here; 0: none read yet. */
    synchronized long version() {
        return version;
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
