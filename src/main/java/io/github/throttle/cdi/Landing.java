package io.github.throttle.cdi;

import java.util.concurrent.Executor;

/**
 * Where the answer to a throttled bean method's caller lands. A caller that may wait (a servlet, worker or virtual
 * thread) waits for its decision and runs the method itself, in its own transaction and scopes. A caller on an event
 * loop must not wait: its call goes on, once decided, on that event loop — on Vert.x (Quarkus) in the caller's own
 * context, so what the context carries (the request context, the logging context) comes along. Never on a store's
 * I/O thread, a timer or a shared pool.
 *
 * <p>An event loop is a Netty event loop's thread (Vert.x's, Lettuce's or the application's) or a Vert.x event-loop
 * thread, the test Quarkus itself makes for {@code BlockingOperationControl}. Vert.x classes are touched only
 * where Vert.x is present.
 */
final class Landing {

    private static volatile boolean vertx = present("io.vertx.core.Vertx");

    private Landing() {
    }

    /** The calling event loop, as an executor that runs work on it; null when the calling thread may wait. */
    static Executor eventLoop() {
        if (vertx) {
            try {
                Executor context = OnVertx.eventLoop();
                if (context != null) {
                    return context;
                }
            } catch (LinkageError e) {
                // Vert.x without what it needs to run: no context can exist
                vertx = false;
            }
        }
        return io.netty.util.internal.ThreadExecutorMap.currentExecutor();
    }

    private static boolean present(String type) {
        try {
            Class.forName(type, false, Landing.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static final class OnVertx {
        /** This thread's Vert.x context, when this thread is a Vert.x event loop. */
        static Executor eventLoop() {
            if (!io.vertx.core.Context.isOnEventLoopThread()) {
                return null;
            }
            io.vertx.core.Context context = io.vertx.core.Vertx.currentContext();
            return context == null ? null : task -> context.runOnContext(ignored -> task.run());
        }
    }
}
