package io.github.throttle.jaxrs;

import jakarta.ws.rs.container.ContainerRequestContext;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * The peer address from RESTEasy's own request ({@code ctx.getHttpRequest().getRemoteAddress()}), looked up
 * reflectively: for servers whose Jakarta REST feature is RESTEasy on a servlet container that does not
 * show the servlet API to applications (Open Liberty with {@code restfulWS} but not {@code servlet}).
 */
final class ResteasyPeer implements PeerAddress {

    private final MethodHandle httpRequest;
    private final MethodHandle remoteAddress;

    private ResteasyPeer(MethodHandle httpRequest, MethodHandle remoteAddress) {
        this.httpRequest = httpRequest;
        this.remoteAddress = remoteAddress;
    }

    /** The RESTEasy way for requests like {@code ctx}, or null when {@code ctx} is not RESTEasy's. */
    static PeerAddress lookup(ContainerRequestContext ctx) {
        try {
            Method getRequest = publicMethod(ctx.getClass(), "getHttpRequest");
            if (getRequest == null) {
                return null;
            }
            Object request = getRequest.invoke(ctx);
            if (request == null) {
                return null;
            }
            Method getAddress = publicMethod(request.getClass(), "getRemoteAddress");
            if (getAddress == null || getAddress.getReturnType() != String.class) {
                return null;
            }
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle req = lookup.unreflect(getRequest).asType(MethodType.methodType(Object.class, Object.class));
            MethodHandle addr = lookup.unreflect(getAddress).asType(MethodType.methodType(String.class, Object.class));
            return new ResteasyPeer(req, addr);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** A public no-argument method, declared by a public type (the class itself or one of its supertypes). */
    private static Method publicMethod(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            Method m = declared(c, name);
            if (m != null) {
                return m;
            }
            for (Class<?> i : c.getInterfaces()) {
                m = declared(i, name);
                if (m != null) {
                    return m;
                }
            }
        }
        return null;
    }

    private static Method declared(Class<?> c, String name) {
        if (!Modifier.isPublic(c.getModifiers())) {
            return null;
        }
        try {
            Method m = c.getMethod(name);
            return Modifier.isPublic(m.getDeclaringClass().getModifiers()) ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    @Override
    public String of(ContainerRequestContext ctx) {
        try {
            Object request = httpRequest.invoke((Object) ctx);
            String addr = request == null ? null : (String) remoteAddress.invoke(request);
            return addr == null ? null : ForwardedFor.address(addr);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
