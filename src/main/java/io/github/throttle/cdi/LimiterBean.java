package io.github.throttle.cdi;

import io.github.throttle.ThrottleKey;
import io.github.throttle.ThrottlePlan;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.jaxrs.ResourceMethods;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.testing.ThrottleClock;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Holds the application's {@link Limiter}: started from MicroProfile Config on first use, closed at shutdown,
 * and offered to injection points and lookups of {@code Limiter}.
 */
@ApplicationScoped
public class LimiterBean {

    /**
     * Beans named at run time are looked up through the bean manager, not an injected {@code Instance<Object>}:
     * such an injection point would keep every bean of the application (Quarkus removes unused ones, among them
     * the readiness check when MicroProfile Health is absent).
     */
    @Inject
    BeanManager beanManager;

    /**
     * The application's beans of Throttle's own types, which only Throttle looks up: without injection points
     * for them, Quarkus would remove them as unused (a plan bean silently ignored, a resolver or weigher made
     * with its no-argument constructor, its own injection points empty).
     */
    @Inject
    Instance<ThrottlePlan> plans;

    @Inject
    Instance<ThrottleKey> keys;

    @Inject
    Instance<ThrottleWeight> weighers;

    private volatile Limiter limiter;
    /** The clock Throttle reads with {@code throttle.clock=manual}; unused otherwise. */
    private final ThrottleClock manualClock = new ThrottleClock();

    @Produces
    @Typed(Limiter.class)
    public Limiter limiter() {
        Limiter l = limiter;
        if (l == null) {
            synchronized (this) {
                l = limiter;
                if (l == null) {
                    l = Bootstrap.start(ConfigProvider.getConfig(), this::instance, this::registry, ResourceMethods::isResourceMethod,
                            planBean(), manualClock);
                    limiter = l;
                }
            }
        }
        return l;
    }

    /**
     * The clock a test moves, with {@code throttle.clock=manual}.
     *
     * @throws IllegalStateException when Throttle reads the system clock: moving another one would change nothing
     */
    @Produces
    @ApplicationScoped
    public ThrottleClock clock() {
        if (!limiter().settings().manualClock()) {
            throw new IllegalStateException("ThrottleClock moves Throttle's time only with " + ThrottleSettings.CLOCK
                    + "=manual; it is system here");
        }
        return manualClock;
    }

    @PreDestroy
    void close() {
        Limiter l = limiter;
        if (l != null) {
            l.close();
        }
    }

    /** How to get the bean of a metrics registry type, when exactly one is resolvable (got on first use). */
    private Optional<Supplier<Object>> registry(Class<?> type) {
        try {
            Instance<?> bean = beanManager.createInstance().select(type);
            return bean.isResolvable() ? Optional.of(bean::get) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The application's {@link ThrottlePlan} bean, if it has one.
     *
     * @throws InvalidThrottleException when it has several
     */
    private Optional<ThrottlePlan> planBean() {
        if (plans.isAmbiguous()) {
            String names = plans.handlesStream().map(h -> h.getBean().getBeanClass().getName()).sorted()
                    .collect(java.util.stream.Collectors.joining(", "));
            throw new InvalidThrottleException("Invalid " + ThrottlePlan.class.getName() + " beans: at most one may tell"
                    + " callers' plans, found " + names);
        }
        return plans.isResolvable() ? Optional.of(plans.get()) : Optional.empty();
    }

    /**
     * A resolver or weigher: the CDI bean of that class if there is exactly one, else a new instance; null when
     * neither.
     */
    private Object instance(Class<?> type) {
        try {
            Instance<?> bean = ThrottleKey.class.isAssignableFrom(type) ? keys.select(type.asSubclass(ThrottleKey.class))
                    : weighers.select(type.asSubclass(ThrottleWeight.class));
            if (bean.isResolvable()) {
                return bean.get();
            }
        } catch (RuntimeException e) {
            // not a bean here: fall through to plain construction
        }
        if (Modifier.isAbstract(type.getModifiers())) {
            return null;
        }
        try {
            Constructor<?> c = type.getDeclaredConstructor();
            c.setAccessible(true);
            return c.newInstance();
        } catch (NoSuchMethodException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e.getCause() != null ? e.getCause() : e);
        }
    }
}
