package io.github.throttle.metrics;

import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.TimeUnit;

/** Meters in a Micrometer {@link MeterRegistry} (Quarkus with {@code quarkus-micrometer}). */
final class MicrometerMeters implements Meters {

    private final MeterRegistry registry;

    MicrometerMeters(Object registry) {
        this.registry = (MeterRegistry) registry;
    }

    @Override
    public Counter calls(String bucket, String plan, String result) {
        io.micrometer.core.instrument.Counter c = io.micrometer.core.instrument.Counter.builder(CALLS)
                .description("Calls of throttled targets, by result")
                .tags("bucket", bucket, "plan", plan, "result", result)
                .register(registry);
        return c::increment;
    }

    @Override
    public Timer storeCalls(String store, String outcome) {
        io.micrometer.core.instrument.Timer t = io.micrometer.core.instrument.Timer.builder(STORE_CALLS)
                .description("Calls of the store that counts, by outcome")
                .tags("store", store, "outcome", outcome)
                .register(registry);
        return nanos -> t.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public Timer waits(String bucket) {
        io.micrometer.core.instrument.Timer t = io.micrometer.core.instrument.Timer.builder(WAITS)
                .description("Waits of calls that waited for their turn")
                .tags("bucket", bucket)
                .register(registry);
        return nanos -> t.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public Timer replicaAcks(String store, String outcome) {
        io.micrometer.core.instrument.Timer t = io.micrometer.core.instrument.Timer.builder(REPLICA_ACKS)
                .description("Waits for replicas to acknowledge decisions, by outcome")
                .tags("store", store, "outcome", outcome)
                .register(registry);
        return nanos -> t.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public Counter promotions(String store) {
        io.micrometer.core.instrument.Counter c = io.micrometer.core.instrument.Counter.builder(PROMOTIONS)
                .description("Promotions the store noticed: a new primary, or one that lost its counts")
                .tags("store", store)
                .register(registry);
        return c::increment;
    }

    @Override
    public Counter leases(String bucket) {
        io.micrometer.core.instrument.Counter c = io.micrometer.core.instrument.Counter.builder(LEASES)
                .description("Leases of hot keys' quota taken")
                .tags("bucket", bucket)
                .register(registry);
        return c::increment;
    }

    @Override
    public Amount leaseUnits(String bucket, String outcome) {
        io.micrometer.core.instrument.Counter c = io.micrometer.core.instrument.Counter.builder(LEASE_UNITS)
                .description("Units leases did not use, by outcome")
                .tags("bucket", bucket, "outcome", outcome)
                .register(registry);
        return c::increment;
    }

    @Override
    public String name() {
        return "micrometer";
    }
}
