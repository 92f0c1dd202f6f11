package io.github.throttle.cdi;

import io.github.throttle.ThrottleKey;
import io.github.throttle.plan.Throttling;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import org.eclipse.microprofile.config.ConfigProvider;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;

/** Holds the application's {@link Throttling}, created from MicroProfile Config on first use and closed at shutdown. */
@ApplicationScoped
public class ThrottleRuntime {

    private volatile Throttling throttling;

    public Throttling throttling() {
        Throttling t = throttling;
        if (t == null) {
            synchronized (this) {
                t = throttling;
                if (t == null) {
                    t = Throttling.start(ConfigProvider.getConfig(), ThrottleRuntime::resolver);
                    throttling = t;
                }
            }
        }
        return t;
    }

    @PreDestroy
    void close() {
        Throttling t = throttling;
        if (t != null) {
            t.close();
        }
    }

    /** A resolver: the CDI bean of that class if there is exactly one, else a new instance. */
    static ThrottleKey resolver(Class<? extends ThrottleKey> type) {
        try {
            Instance<? extends ThrottleKey> bean = CDI.current().select(type);
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
            Constructor<? extends ThrottleKey> c = type.getDeclaredConstructor();
            c.setAccessible(true);
            return c.newInstance();
        } catch (NoSuchMethodException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e.getCause() != null ? e.getCause() : e);
        }
    }
}
