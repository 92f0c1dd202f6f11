package io.github.throttle.cdi;

import io.github.throttle.Throttle;
import io.github.throttle.config.TargetConfig;
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
 * method, so that a bad annotation or configuration value fails the deployment instead of a request.
 */
@ApplicationScoped
public class StartupCheck {

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object event, BeanManager beans, Limiter limiter) {
        Set<Class<?>> seen = new HashSet<>();
        for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            Class<?> type = bean.getBeanClass();
            if (type.getName().startsWith("io.github.throttle.") || !seen.add(type)) {
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
                    if (!m.isSynthetic() && !Modifier.isStatic(m.getModifiers()) && !Modifier.isPrivate(m.getModifiers())
                            && TargetConfig.annotations(c, m).length > 0) {
                        limiter.target(c, m);
                    }
                }
            }
        }
    }
}
