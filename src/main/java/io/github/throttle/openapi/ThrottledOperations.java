package io.github.throttle.openapi;

import io.github.throttle.config.Hierarchy;
import io.github.throttle.config.TargetConfig;
import io.github.throttle.jaxrs.ResourceMethods;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Target;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The throttled operations of an application as its OpenAPI document names them: HTTP method, path template
 * ({@code @Path} of the resource class and of the method, regular expressions of path parameters dropped)
 * and the target's limits. Targets switched off or in report mode are left out: they never answer 429.
 */
final class ThrottledOperations {

    /** One throttled operation. */
    record Operation(String httpMethod, String path, Target target) {

        /** Whether {@code documentPath} (which may carry the application's path before it) names this operation. */
        boolean matches(String documentPath) {
            String p = normalize(documentPath);
            return p.equals(path) || (path.length() > 1 && p.endsWith(path));
        }
    }

    private ThrottledOperations() {
    }

    /** @param resources resource methods and the class serving each */
    static List<Operation> of(Limiter limiter, Map<Method, Class<?>> resources) {
        List<Operation> ops = new ArrayList<>();
        resources.forEach((method, type) -> {
            if (TargetConfig.annotations(type, method).length == 0) {
                return;
            }
            Target target = limiter.target(type, method);
            // JAX-RS annotations may sit on a method it overrides or implements
            Method jaxrs = ResourceMethods.designated(type, method);
            Optional<String> http = jaxrs == null ? Optional.empty() : httpMethod(jaxrs);
            if (limiter.active(target) && !target.report() && http.isPresent()) {
                ops.add(new Operation(http.get(), normalize(path(type) + "/" + path(jaxrs)), target));
            }
        });
        return ops;
    }

    /** The resource methods of a class: public methods with an HTTP method designator. */
    static void addResourceMethods(Class<?> type, Map<Method, Class<?>> into) {
        if (classPath(type) == null) {
            return;
        }
        for (Method m : type.getMethods()) {
            if (m.getDeclaringClass() != Object.class && !m.isBridge() && ResourceMethods.designated(type, m) != null) {
                into.putIfAbsent(m, type);
            }
        }
    }

    private static Optional<String> httpMethod(Method method) {
        for (Annotation a : method.getAnnotations()) {
            HttpMethod designator = a.annotationType().getAnnotation(HttpMethod.class);
            if (designator != null) {
                return Optional.of(designator.value());
            }
        }
        return Optional.empty();
    }

    /** The class's {@code @Path}: its own, else a superclass's, else an interface's (as Quarkus REST reads it). */
    private static Path classPath(Class<?> type) {
        for (Class<?> c : Hierarchy.of(type)) {
            if (c.getAnnotation(Path.class) != null) {
                return c.getAnnotation(Path.class);
            }
        }
        return null;
    }

    private static String path(Class<?> type) {
        Path p = classPath(type);
        return p == null ? "" : p.value();
    }

    private static String path(Method method) {
        Path p = method.getAnnotation(Path.class);
        return p == null ? "" : p.value();
    }

    /** One slash between segments, none at the end, and {@code {name: regex}} written {@code {name}}. */
    static String normalize(String path) {
        StringBuilder b = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '{') {
                depth++;
                if (depth == 1) {
                    int end = i + 1;
                    while (end < path.length() && path.charAt(end) != ':' && path.charAt(end) != '}') {
                        end++;
                    }
                    b.append('{').append(path.substring(i + 1, end).trim()).append('}');
                }
            } else if (c == '}') {
                depth--;
            } else if (depth == 0 && !(c == '/' && b.length() > 0 && b.charAt(b.length() - 1) == '/')) {
                b.append(c);
            }
        }
        if (b.length() == 0 || b.charAt(0) != '/') {
            b.insert(0, '/');
        }
        if (b.length() > 1 && b.charAt(b.length() - 1) == '/') {
            b.setLength(b.length() - 1);
        }
        return b.toString();
    }
}
