package io.github.throttle.jaxrs;

import io.github.throttle.limiter.Target;
import jakarta.enterprise.context.ApplicationScoped;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The resource methods the HTTP filter throttles, each with its filter: filled once per method when JAX-RS deploys
 * the application ({@link ThrottleFeature}), read per request where Quarkus REST decides before a worker thread is
 * involved ({@link EventLoopDecision}). A method is in it once, whichever way its calls are decided.
 */
@ApplicationScoped
public class ThrottledMethods {

    /** What an application puts on a key resolver or weigher (or on its method) that must not run on an event loop. */
    static final String BLOCKING = "io.smallrye.common.annotation.Blocking";

    private final Map<Method, ThrottleFilter> onEventLoop = new ConcurrentHashMap<>();

    /** Records a throttled resource method and its filter. */
    public void add(Method method, ThrottleFilter filter) {
        if (!blocking(filter.target())) {
            onEventLoop.put(method, filter);
        }
    }

    /**
     * The filter of a resource method that may decide on an event loop; null when the method is not throttled, or
     * when its target calls application code marked blocking (it is then decided on the worker thread).
     */
    public ThrottleFilter onEventLoop(Method method) {
        return onEventLoop.get(method);
    }

    private static boolean blocking(Target target) {
        for (Class<?> callee : target.callees()) {
            if (marked(callee.getAnnotations())) {
                return true;
            }
            for (Method m : callee.getMethods()) {
                if (!m.isBridge() && m.getDeclaringClass() != Object.class && marked(m.getAnnotations())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean marked(Annotation[] annotations) {
        for (Annotation a : annotations) {
            if (a.annotationType().getName().equals(BLOCKING)) {
                return true;
            }
        }
        return false;
    }
}
