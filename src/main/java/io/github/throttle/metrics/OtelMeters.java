package io.github.throttle.metrics;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;

import java.util.List;

/** Meters of OpenTelemetry metrics (Open Liberty {@code mpTelemetry-2.x}, Quarkus OpenTelemetry). */
final class OtelMeters implements Meters {

    private static final List<Double> BOUNDARIES = List.of(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
            0.1, 0.25, 0.5, 1.0);

    private final LongCounter calls;
    private final DoubleHistogram storeCalls;
    private final DoubleHistogram waits;
    private final DoubleHistogram replicaAcks;
    private final LongCounter promotions;
    private final LongCounter leases;
    private final LongCounter leaseUnits;

    OtelMeters(Object openTelemetry) {
        Meter meter = ((OpenTelemetry) openTelemetry).getMeter("io.github.throttle");
        this.calls = meter.counterBuilder(CALLS).setDescription("Calls of throttled targets, by result").build();
        DoubleHistogramBuilder histogram = meter.histogramBuilder(STORE_CALLS)
                .setDescription("Calls of the store that counts, by outcome").setUnit("s");
        try {
            // store calls take micro- to milliseconds: the default boundaries (0, 5, 10, ...) suit milliseconds
            histogram = histogram.setExplicitBucketBoundariesAdvice(BOUNDARIES);
        } catch (NoSuchMethodError | UnsupportedOperationException e) {
            // an OpenTelemetry older than 1.32 takes no advice: its default boundaries stay
        }
        this.storeCalls = histogram.build();
        this.waits = meter.histogramBuilder(WAITS).setDescription("Waits of calls that waited for their turn").setUnit("s").build();
        this.replicaAcks = meter.histogramBuilder(REPLICA_ACKS).setDescription("Waits for replicas to acknowledge decisions, by outcome")
                .setUnit("s").build();
        this.promotions = meter.counterBuilder(PROMOTIONS)
                .setDescription("Promotions the store noticed: a new primary, or one that lost its counts").build();
        this.leases = meter.counterBuilder(LEASES).setDescription("Leases of hot keys' quota taken").build();
        this.leaseUnits = meter.counterBuilder(LEASE_UNITS).setDescription("Units leases did not use, by outcome").build();
    }

    @Override
    public Counter calls(String bucket, String plan, String result) {
        Attributes tags = Attributes.of(AttributeKey.stringKey("bucket"), bucket, AttributeKey.stringKey("plan"), plan,
                AttributeKey.stringKey("result"), result);
        return () -> calls.add(1, tags);
    }

    @Override
    public Timer storeCalls(String store, String outcome) {
        Attributes tags = Attributes.of(AttributeKey.stringKey("store"), store, AttributeKey.stringKey("outcome"), outcome);
        return nanos -> storeCalls.record(nanos / 1e9, tags);
    }

    @Override
    public Timer waits(String bucket) {
        Attributes tags = Attributes.of(AttributeKey.stringKey("bucket"), bucket);
        return nanos -> waits.record(nanos / 1e9, tags);
    }

    @Override
    public Timer replicaAcks(String store, String outcome) {
        Attributes tags = Attributes.of(AttributeKey.stringKey("store"), store, AttributeKey.stringKey("outcome"), outcome);
        return nanos -> replicaAcks.record(nanos / 1e9, tags);
    }

    @Override
    public Counter promotions(String store) {
        Attributes tags = Attributes.of(AttributeKey.stringKey("store"), store);
        return () -> promotions.add(1, tags);
    }

    @Override
    public Counter leases(String bucket) {
        Attributes tags = Attributes.of(AttributeKey.stringKey("bucket"), bucket);
        return () -> leases.add(1, tags);
    }

    @Override
    public Amount leaseUnits(String bucket, String outcome) {
        Attributes tags = Attributes.of(AttributeKey.stringKey("bucket"), bucket, AttributeKey.stringKey("outcome"), outcome);
        return n -> leaseUnits.add(n, tags);
    }

    @Override
    public String name() {
        return "otel";
    }
}
