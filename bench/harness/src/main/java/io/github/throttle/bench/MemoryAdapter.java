package io.github.throttle.bench;

import io.github.throttle.bench.Windows.Window;
import io.github.throttle.memory.MemoryStore;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;

/** Throttle's memory store behind the decider, on the server's clock (the library's internal classes: see {@link Engine}). */
final class MemoryAdapter implements AutoCloseable {

    private final MemoryStore store;
    private final Engine engine;

    MemoryAdapter() {
        this(InstantSource.system());
    }

    MemoryAdapter(InstantSource clock) {
        this.store = new MemoryStore(clock);
        this.engine = new Engine(store, false, Duration.ofSeconds(2));
    }

    Engine.Bucket bucket(String name, Window[] windows) {
        return engine.bucket(name, windows);
    }

    /** The store alone, without the decider (its clock): the reply's figure count. */
    int decideInStore(Engine.Bucket bucket, String identity) {
        return store.decideNow(bucket.call(identity, -1)).figures().length;
    }

    /** The store alone, without the decider: whether the call was allowed. */
    boolean decideAllowed(Engine.Bucket bucket, String identity) {
        return store.decideNow(bucket.call(identity, -1)).allowed();
    }

    /** Identities held. */
    int size() {
        return store.size();
    }

    /** Whether the store's sweep of idle identities is running (private fields of the store and its sweeper). */
    boolean sweeping() throws ReflectiveOperationException {
        var sweeper = MemoryStore.class.getDeclaredField("sweeper");
        sweeper.setAccessible(true);
        Object s = sweeper.get(store);
        var running = s.getClass().getDeclaredField("running");
        running.setAccessible(true);
        return ((AtomicBoolean) running.get(s)).get();
    }

    @Override
    public void close() {
        store.close();
    }
}
