package io.github.throttle.limiter;

import io.github.throttle.engine.Store;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The settings every instance shares through the store under one key: assignments, overrides and the mark of
 * the last reset. This instance asks the store for the version of that key twice a second and, when it
 * changed, reads every field and hands them over; a call only reads what was made of them in memory. While the
 * store fails, what was read last stays in force. Its thread also runs the other periodic work of the limiter.
 */
final class SharedSettingsWatch implements AutoCloseable {

    /** How often the store is asked for a change. */
    static final Duration POLL = Duration.ofMillis(500);

    private final Store store;
    private final String key;
    private final Duration timeout;
    private final Consumer<Map<String, String>> onChange;
    private final ScheduledExecutorService thread;
    private String version = "";

    /**
     * Reads the settings once before returning, so that an instance starts with those in force.
     *
     * @param key      the store key holding the settings
     * @param onChange given every field (the version's included) whenever the version changed
     * @param timeout  bounds each store call
     */
    SharedSettingsWatch(Store store, String key, Duration timeout, Consumer<Map<String, String>> onChange) {
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
    void write(SharedChange change) {
        wait(store.writeShared(key, change.field(), change.value()), "keep " + change.what());
        poll();
    }

    /**
     * Waits for a store call, at most the timeout; a failure becomes an {@link IllegalStateException}.
     *
     * @param doing what the call does, for the message of a failure: {@code keep ...}, {@code read ...}
     */
    <T> T wait(java.util.concurrent.CompletionStage<T> call, String doing) {
        try {
            return call.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the " + store.describe() + " was asked to " + doing, e);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("the " + store.describe() + " could not " + doing + ": " + store.describe(cause), cause);
        }
    }

    /** Reads the settings again when their version changed; a store that fails leaves everything as it is. */
    synchronized void poll() {
        try {
            String now = store.sharedVersion(key).toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (now.equals(version)) {
                return;
            }
            Map<String, String> fields = store.readShared(key).toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            onChange.accept(fields);
            version = fields.getOrDefault(Store.VERSION, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // the store fails: the last known settings stay in force, and the decisions say so in the log
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
