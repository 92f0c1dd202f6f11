package io.github.throttle.jaxrs;

import jakarta.ws.rs.HttpMethod;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/** Tells JAX-RS resource methods apart: those the HTTP filter throttles, before the request entity is read. */
public final class ResourceMethods {

    private ResourceMethods() {
    }

    /** Whether the method, or one it overrides or implements, carries an HTTP method designator ({@code @GET}, ...). */
    public static boolean isResourceMethod(Method method) {
        try {
            for (Class<?> c = method.getDeclaringClass(); c != null && c != Object.class; c = c.getSuperclass()) {
                if (designated(c, method)) {
                    return true;
                }
                for (Class<?> i : c.getInterfaces()) {
                    if (designated(i, method)) {
                        return true;
                    }
                }
            }
        } catch (LinkageError e) {
            // no JAX-RS on this server: nothing is a resource method
        }
        return false;
    }

    private static boolean designated(Class<?> c, Method method) {
        try {
            Method m = c.getDeclaredMethod(method.getName(), method.getParameterTypes());
            for (Annotation a : m.getAnnotations()) {
                if (a.annotationType().isAnnotationPresent(HttpMethod.class)) {
                    return true;
                }
            }
        } catch (NoSuchMethodException e) {
            // not declared here
        }
        return false;
    }
}
