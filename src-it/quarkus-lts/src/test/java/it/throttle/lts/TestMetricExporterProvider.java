package it.throttle.lts;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.metrics.ConfigurableMetricExporterProvider;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricExporter;

/** The OpenTelemetry metric exporter {@code throttle-test}: it keeps what it is given, for the test to read. */
public class TestMetricExporterProvider implements ConfigurableMetricExporterProvider {

    static final InMemoryMetricExporter EXPORTER = InMemoryMetricExporter.create();

    @Override
    public MetricExporter createExporter(ConfigProperties config) {
        return EXPORTER;
    }

    @Override
    public String getName() {
        return "throttle-test";
    }
}
