package it.throttle.quarkus;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.spi.HealthCheckResponseProvider;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The builder behind {@link HealthCheckResponse#named(String)}, which a health runtime provides; Quarkus 3.38.2
 * has none here (no SmallRye Health extension), so the readiness tests bring this one to call the check.
 */
public final class HealthResponses implements HealthCheckResponseProvider {

    @Override
    public HealthCheckResponseBuilder createResponseBuilder() {
        return new HealthCheckResponseBuilder() {
            private String name;
            private HealthCheckResponse.Status status = HealthCheckResponse.Status.DOWN;
            private final Map<String, Object> data = new LinkedHashMap<>();

            @Override
            public HealthCheckResponseBuilder name(String name) {
                this.name = name;
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, String value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, long value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, boolean value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder up() {
                return status(true);
            }

            @Override
            public HealthCheckResponseBuilder down() {
                return status(false);
            }

            @Override
            public HealthCheckResponseBuilder status(boolean up) {
                this.status = up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN;
                return this;
            }

            @Override
            public HealthCheckResponse build() {
                return new HealthCheckResponse(name, status, data.isEmpty() ? Optional.empty() : Optional.of(Map.copyOf(data)));
            }
        };
    }
}
