package it.throttle.app;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleWeight;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** A call weighs its {@code size} query parameter (a batch of n items costs n), else the configured default. */
@ApplicationScoped
public class QuerySize implements ThrottleWeight {

    @Inject
    @ConfigProperty(name = "it.sized.default-size", defaultValue = "1")
    long defaultSize;

    @Override
    public long weigh(Caller caller) {
        return caller.queryParameter("size").map(Long::parseLong).orElse(defaultSize);
    }
}
