package io.github.throttle.cdi;

import java.util.concurrent.Executor;

/**
 * Where a call goes on once its decision is in: on Quarkus, the Vert.x context it started on (an event loop stays
 * that event loop, and what the context carries, such as the request context, comes along); elsewhere, the
 * thread that completed the decision. Vert.x classes are touched only where Vert.x is present.
 */
final class Continuation {

    private static volatile boolean vertx = present();

    private Continuation() {
    }

    /** The Vert.x context of this thread as an executor; null when there is none. */
    static Executor current() {
        if (!vertx) {
            return null;
        }
        try {
            return OnVertx.current();
        } catch (LinkageError e) {
            // Vert.x without what it needs to run: no context can exist
            vertx = false;
            return null;
        }
    }

    private static boolean present() {
        try {
            Class.forName("io.vertx.core.Vertx", false, Continuation.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static final class OnVertx {
        static Executor current() {
            io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
            return context == null ? null : task -> context.runOnContext(ignored -> task.run());
        }
    }
}
