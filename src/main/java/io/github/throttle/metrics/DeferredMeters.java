package io.github.throttle.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A backend whose registry is asked for when the first call is counted, not at start-up: some servers make
 * their registry only once the application runs (Quarkus's OpenTelemetry). Then every meter asked for so far
 * is made at once (so each series shows from the first call on, at 0 until it counts), and later ones when
 * they are asked for. Should the registry fail, that is logged once and nothing is published.
 */
final class DeferredMeters implements Meters {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final String name;
    private final Supplier<Meters> open;
    /** The meters made before the backend was opened. Guarded by {@code this}. */
    private final List<Deferred<?>> waiting = new ArrayList<>();
    private volatile Meters backend;

    DeferredMeters(String name, Supplier<Meters> open) {
        this.name = name;
        this.open = open;
    }

    /** A meter of the backend, made when the backend is there. */
    private final class Deferred<M> {
        private final Function<Meters, M> make;
        private volatile M made;

        Deferred(Function<Meters, M> make) {
            this.make = make;
        }

        M get() {
            M m = made;
            if (m == null) {
                open();
                m = made;
            }
            return m;
        }
    }

    private <M> Deferred<M> defer(Function<Meters, M> make) {
        Deferred<M> d = new Deferred<>(make);
        synchronized (this) {
            if (backend == null) {
                waiting.add(d);
            } else {
                d.made = make.apply(backend);
            }
        }
        return d;
    }

    private synchronized void open() {
        if (backend != null) {
            return;
        }
        Meters b;
        try {
            b = open.get();
            for (Deferred<?> d : waiting) {
                make(d, b);
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "Throttle cannot publish metrics through " + name + ": " + e);
            b = NONE;
            for (Deferred<?> d : waiting) {
                make(d, b);
            }
        }
        waiting.clear();
        backend = b;
    }

    private static <M> void make(Deferred<M> d, Meters b) {
        d.made = d.make.apply(b);
    }

    @Override
    public Counter calls(String bucket, String plan, String result) {
        Deferred<Counter> d = defer(b -> b.calls(bucket, plan, result));
        return () -> d.get().increment();
    }

    @Override
    public Timer storeCalls(String store, String outcome) {
        Deferred<Timer> d = defer(b -> b.storeCalls(store, outcome));
        return nanos -> d.get().record(nanos);
    }

    @Override
    public Timer waits(String bucket) {
        Deferred<Timer> d = defer(b -> b.waits(bucket));
        return nanos -> d.get().record(nanos);
    }

    @Override
    public Timer replicaAcks(String store, String outcome) {
        Deferred<Timer> d = defer(b -> b.replicaAcks(store, outcome));
        return nanos -> d.get().record(nanos);
    }

    @Override
    public Counter promotions(String store) {
        Deferred<Counter> d = defer(b -> b.promotions(store));
        return () -> d.get().increment();
    }

    @Override
    public Counter leases(String bucket) {
        Deferred<Counter> d = defer(b -> b.leases(bucket));
        return () -> d.get().increment();
    }

    @Override
    public Amount leaseUnits(String bucket, String outcome) {
        Deferred<Amount> d = defer(b -> b.leaseUnits(bucket, outcome));
        return n -> d.get().add(n);
    }

    @Override
    public String name() {
        return name;
    }
}
