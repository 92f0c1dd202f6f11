package io.github.throttle.jaxrs;

import io.github.throttle.config.Hierarchy;
import jakarta.ws.rs.HttpMethod;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * Tells JAX-RS resource methods apart: those the HTTP filter throttles, before the request entity is read. A method
 * is one when it, or a method it overrides or implements, carries an HTTP method designator, as JAX-RS inherits
 * them; a method of a MicroProfile REST client interface is a client's, never a server's.
 */
public final class ResourceMethods {

    /** What marks a MicroProfile REST client interface. */
    private static final String REST_CLIENT = "org.eclipse.microprofile.rest.client.inject.RegisterRestClient";

    private ResourceMethods() {
    }

    /** Whether the method, or one it overrides or implements, carries an HTTP method designator ({@code @GET}, ...). */
    public static boolean isResourceMethod(Method method) {
        try {
            return designated(method.getDeclaringClass(), method) != null;
        } catch (LinkageError e) {
            // no JAX-RS on this server: nothing is a resource method
            return false;
        }
    }

    /**
     * The declaration of a method of {@code type} that carries its HTTP method designator: the method's own, else the
     * nearest one it overrides, else one it implements; null when there is none.
     */
    public static Method designated(Class<?> type, Method method) {
        for (Class<?> c : Hierarchy.of(type)) {
            Method m = designatedIn(c, method);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    /** Whether {@code type} is, or implements, a MicroProfile REST client interface ({@code @RegisterRestClient}). */
    public static boolean isRestClient(Class<?> type) {
        for (Class<?> c : Hierarchy.of(type)) {
            for (Annotation a : c.getAnnotations()) {
                if (a.annotationType().getName().equals(REST_CLIENT)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Method designatedIn(Class<?> c, Method method) {
        try {
            Method m = c.getDeclaredMethod(method.getName(), method.getParameterTypes());
            for (Annotation a : m.getAnnotations()) {
                if (a.annotationType().isAnnotationPresent(HttpMethod.class)) {
                    return m;
                }
            }
        } catch (NoSuchMethodException e) {
            // not declared here
        }
        return null;
    }
}
