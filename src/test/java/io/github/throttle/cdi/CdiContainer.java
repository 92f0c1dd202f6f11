package io.github.throttle.cdi;

import io.github.throttle.CallDecision;
import jakarta.enterprise.inject.se.SeContainer;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;

/**
 * A real CDI container (Weld, the one Payara and Liberty run) holding Throttle's beans, as an application gets
 * them from the jar's {@code beans.xml}, and the test's own beans, with {@code config} as the application's
 * MicroProfile Config. Start-up runs as in a deployment: a bad target fails {@link #start}.
 */
final class CdiContainer implements AutoCloseable {

    private final SeContainer container;
    private final Config config;

    private CdiContainer(SeContainer container, Config config) {
        this.container = container;
        this.config = config;
    }

    static CdiContainer start(Config config, Class<?>... beans) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        // whatever config an earlier test left for this class loader gives way to this one
        resolver.releaseConfig(resolver.getConfig(loader));
        resolver.registerConfig(config, loader);
        try {
            SeContainer container = new Weld().disableDiscovery()
                    // the interceptor is enabled by its @Priority, as in the jar
                    .addBeanClasses(LimiterBean.class, PrincipalLookup.class, StartupCheck.class, CallDecision.class,
                            ThrottleInterceptor.class)
                    .addBeanClasses(beans)
                    .initialize();
            return new CdiContainer(container, config);
        } catch (RuntimeException | Error e) {
            resolver.releaseConfig(config);
            throw e;
        }
    }

    <T> T bean(Class<T> type) {
        return container.select(type).get();
    }

    @Override
    public void close() {
        try {
            container.close();
        } finally {
            ConfigProviderResolver.instance().releaseConfig(config);
        }
    }
}
