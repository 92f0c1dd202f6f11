package io.github.throttle.jaxrs;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Grizzly (the HTTP layer of Payara and GlassFish) takes the reason phrase of the status line from its own
 * table of status codes, which has no 429: a denied call would go out as {@code HTTP/1.1 429 CUSTOM}.
 * Servlet 6 has no way to set a reason phrase, and Jersey sets only the code, so when that table is present
 * and lacks 429, 429 is added to it once, as "Too Many Requests". Elsewhere this does nothing.
 */
final class GrizzlyStatusLine {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");
    private static final String HTTP_STATUS = "org.glassfish.grizzly.http.util.HttpStatus";
    private static final AtomicBoolean DONE = new AtomicBoolean();

    private GrizzlyStatusLine() {
    }

    static void registerTooManyRequests() {
        if (!DONE.compareAndSet(false, true)) {
            return;
        }
        Class<?> status = load(GrizzlyStatusLine.class.getClassLoader());
        if (status == null) {
            status = load(Thread.currentThread().getContextClassLoader());
        }
        if (status == null) {
            return;
        }
        try {
            Object known = status.getMethod("getHttpStatus", int.class).invoke(null, 429);
            if (!"CUSTOM".equals(status.getMethod("getReasonPhrase").invoke(known))) {
                return;
            }
            Method register = status.getDeclaredMethod("register", int.class, String.class);
            register.setAccessible(true);
            register.invoke(null, 429, "Too Many Requests");
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot name status 429 in Grizzly's status table: " + e);
        }
    }

    private static Class<?> load(ClassLoader loader) {
        if (loader == null) {
            return null;
        }
        try {
            return Class.forName(HTTP_STATUS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
