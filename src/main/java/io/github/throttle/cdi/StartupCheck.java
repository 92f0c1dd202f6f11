package io.github.throttle.cdi;

import io.github.throttle.Throttle;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.config.TargetConfig;
import io.github.throttle.jaxrs.ResourceMethods;
import io.github.throttle.limiter.Limiter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

/**
 * At start-up: reads the settings, opens the store and builds the target of every {@link Throttle}d bean
 * method, so that a bad annotation or configuration value fails the deployment instead of a request. A limit that
 * the CDI interceptor cannot reach fails it too: one declared on an interface method, or on a superclass method, that
 * the bean class implements or overrides without {@code @Throttle} — interceptor bindings are not inherited by such
 * methods. Resource methods are the HTTP filter's, which finds such limits; MicroProfile REST client interfaces are
 * clients, never throttled.
 */
@ApplicationScoped
public class StartupCheck {

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object event, BeanManager beans, Limiter limiter) {
        Set<Class<?>> seen = new HashSet<>();
        for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            Class<?> type = bean.getBeanClass();
            if (type.getName().startsWith("io.github.throttle.") || type.isInterface() || !seen.add(type)
                    || ResourceMethods.isRestClient(type)) {
                continue;
            }
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                Method[] methods;
                try {
                    methods = c.getDeclaredMethods();
                } catch (LinkageError e) {
                    break;
                }
                for (Method m : methods) {
                    if (m.isSynthetic() || Modifier.isStatic(m.getModifiers()) || Modifier.isPrivate(m.getModifiers())) {
                        continue;
                    }
                    if (TargetConfig.annotations(c, m).length > 0) {
                        unreachable(type, c, m);
                        limiter.target(c, m);
                    }
                }
            }
        }
    }

    /**
     * Fails when {@code m}'s limits come from a method it overrides or implements while neither it nor its bean class
     * carries {@code @Throttle}: the interceptor would never run for it.
     */
    private static void unreachable(Class<?> beanClass, Class<?> declaring, Method m) {
        if (m.isAnnotationPresent(Throttle.class) || m.isAnnotationPresent(Throttle.List.class)
                || beanClass.getAnnotationsByType(Throttle.class).length > 0 || ResourceMethods.isResourceMethod(m)
                || TargetConfig.onMethods(declaring, m).length == 0) {
            return;
        }
        throw new InvalidThrottleException("Invalid @Throttle for " + declaring.getName() + "#" + m.getName()
                + ": its limits are declared on a method it overrides or implements, and CDI does not carry an "
                + "interceptor binding to such a method, so it would never be throttled; put @Throttle on "
                + declaring.getSimpleName() + "." + m.getName() + " itself (or on its class)");
    }
}
