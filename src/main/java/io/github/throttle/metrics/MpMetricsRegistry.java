package io.github.throttle.metrics;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * The MicroProfile Metrics application registry, injected: some servers (Payara) make it only for an
 * injection point, never for a lookup. A bean only where MicroProfile Metrics is (see beans.xml; Quarkus
 * removes it as unused).
 */
@Dependent
public class MpMetricsRegistry {

    /** An {@code Instance}, so that a container that validates unused beans (Quarkus) never finds it unsatisfied. */
    @Inject
    Instance<MetricRegistry> registry;

    Object registry() {
        return registry.get();
    }
}
