package io.github.throttle.metrics;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Finds the metrics backend the server offers, at start-up: each backend's API must be visible to this
 * library and its registry must be a CDI bean. {@code auto} takes the first of Micrometer, MicroProfile
 * Metrics, OpenTelemetry that is there; a named backend that is not there is an error.
 */
public final class MetricsBackends {

    /**
     * A backend: its setting value, the type of its API that must be visible, the type of the CDI bean that
     * holds its registry, and how to wrap that bean.
     */
    private record Backend(String name, String api, String bean, Function<Object, Meters> wrap) {
    }

    // lambdas, not constructor references: a backend's class (and its API) is loaded only when it is used
    private static final List<Backend> BACKENDS = List.of(
            new Backend("micrometer", "io.micrometer.core.instrument.MeterRegistry", "io.micrometer.core.instrument.MeterRegistry",
                    r -> new MicrometerMeters(r)),
            new Backend("mp-metrics", "org.eclipse.microprofile.metrics.MetricRegistry", "io.github.throttle.metrics.MpMetricsRegistry",
                    r -> new MpMetricsMeters(((MpMetricsRegistry) r).registry())),
            new Backend("otel", "io.opentelemetry.api.OpenTelemetry", "io.opentelemetry.api.OpenTelemetry", r -> new OtelMeters(r)));

    /** The values {@code throttle.metrics} takes. */
    public static final List<String> CHOICES = List.of("auto", "micrometer", "mp-metrics", "otel", "none");

    private MetricsBackends() {
    }

    /**
     * @param choice one of {@link #CHOICES}
     * @param beans  for a type with exactly one CDI bean, how to get that bean; empty when there is none
     * @return the meters, or empty when {@code choice} names a backend that is not there
     */
    public static Optional<Meters> select(String choice, Function<Class<?>, Optional<Supplier<Object>>> beans) {
        if (choice.equals("none")) {
            return Optional.of(Meters.NONE);
        }
        for (Backend b : BACKENDS) {
            if (!choice.equals("auto") && !choice.equals(b.name())) {
                continue;
            }
            Optional<Supplier<Object>> registry = visible(b.api()).flatMap(api -> visible(b.bean())).flatMap(beans);
            if (registry.isPresent()) {
                Supplier<Object> bean = registry.get();
                return Optional.of(new DeferredMeters(b.name(), () -> b.wrap().apply(bean.get())));
            }
        }
        return choice.equals("auto") ? Optional.of(Meters.NONE) : Optional.empty();
    }

    private static Optional<Class<?>> visible(String type) {
        try {
            return Optional.of(Class.forName(type, false, MetricsBackends.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
    }
}
