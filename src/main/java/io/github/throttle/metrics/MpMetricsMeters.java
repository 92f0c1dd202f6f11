package io.github.throttle.metrics;

import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;

import java.time.Duration;

/** Meters in the application registry of MicroProfile Metrics 5 (Payara 6, Open Liberty {@code mpMetrics-5.x}). */
final class MpMetricsMeters implements Meters {

    private final MetricRegistry registry;

    MpMetricsMeters(Object registry) {
        this.registry = (MetricRegistry) registry;
    }

    @Override
    public Counter calls(String bucket, String plan, String result) {
        org.eclipse.microprofile.metrics.Counter c = registry.counter(
                Metadata.builder().withName(CALLS).withDescription("Calls of throttled targets, by result").build(),
                new Tag("bucket", bucket), new Tag("plan", plan), new Tag("result", result));
        return c::inc;
    }

    @Override
    public Timer storeCalls(String store, String outcome) {
        org.eclipse.microprofile.metrics.Timer t = registry.timer(
                Metadata.builder().withName(STORE_CALLS).withDescription("Calls of the store that counts, by outcome")
                        .withUnit(MetricUnits.NANOSECONDS).build(),
                new Tag("store", store), new Tag("outcome", outcome));
        return nanos -> t.update(Duration.ofNanos(nanos));
    }

    @Override
    public Timer waits(String bucket) {
        org.eclipse.microprofile.metrics.Timer t = registry.timer(
                Metadata.builder().withName(WAITS).withDescription("Waits of calls that waited for their turn")
                        .withUnit(MetricUnits.NANOSECONDS).build(),
                new Tag("bucket", bucket));
        return nanos -> t.update(Duration.ofNanos(nanos));
    }

    @Override
    public Timer replicaAcks(String store, String outcome) {
        org.eclipse.microprofile.metrics.Timer t = registry.timer(
                Metadata.builder().withName(REPLICA_ACKS).withDescription("Waits for replicas to acknowledge decisions, by outcome")
                        .withUnit(MetricUnits.NANOSECONDS).build(),
                new Tag("store", store), new Tag("outcome", outcome));
        return nanos -> t.update(Duration.ofNanos(nanos));
    }

    @Override
    public Counter promotions(String store) {
        org.eclipse.microprofile.metrics.Counter c = registry.counter(
                Metadata.builder().withName(PROMOTIONS).withDescription("Promotions the store noticed: a new primary, or one that lost its counts").build(),
                new Tag("store", store));
        return c::inc;
    }

    @Override
    public Counter leases(String bucket) {
        org.eclipse.microprofile.metrics.Counter c = registry.counter(
                Metadata.builder().withName(LEASES).withDescription("Leases of hot keys' quota taken").build(),
                new Tag("bucket", bucket));
        return c::inc;
    }

    @Override
    public Amount leaseUnits(String bucket, String outcome) {
        org.eclipse.microprofile.metrics.Counter c = registry.counter(
                Metadata.builder().withName(LEASE_UNITS).withDescription("Units leases did not use, by outcome").build(),
                new Tag("bucket", bucket), new Tag("outcome", outcome));
        return c::inc;
    }

    @Override
    public String name() {
        return "mp-metrics";
    }
}
