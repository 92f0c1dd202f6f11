package io.github.throttle.boot;

import io.netty.channel.EventLoopGroup;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The event loops of the server's Vert.x, found at start-up: on Quarkus the {@code io.vertx.core.Vertx} CDI
 * bean. The Redis store runs its sockets on them, so that Redis replies arrive on threads that already run
 * instead of waking threads of Lettuce's own. Elsewhere (Payara, Liberty) there are none.
 */
final class ServerEventLoops {

    private static final String VERTX = "io.vertx.core.Vertx";
    /** The accessor of Vert.x's Netty event loops: Vert.x 5, then Vert.x 4 (an internal API, hence reflection). */
    private static final List<String> ACCESSORS = List.of("nettyEventLoopGroup", "getEventLoopGroup");

    private ServerEventLoops() {
    }

    /**
     * @param beans for a type with exactly one CDI bean, how to get that bean; empty when there is none
     * @return how to get the loops, when the server has a Vert.x bean: asked on the first connection, since
     *         Quarkus makes Vert.x after Throttle starts; it gives null when the loops cannot be reached
     */
    static Optional<Supplier<EventLoopGroup>> find(Function<Class<?>, Optional<Supplier<Object>>> beans) {
        Class<?> type;
        try {
            type = Class.forName(VERTX, false, ServerEventLoops.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
        return beans.apply(type).map(vertx -> () -> loopsOf(vertx.get()));
    }

    private static EventLoopGroup loopsOf(Object vertx) {
        for (String accessor : ACCESSORS) {
            try {
                // an EventLoopGroup of another class loader's Netty is of no use to Lettuce: instanceof rules it out
                if (vertx.getClass().getMethod(accessor).invoke(vertx) instanceof EventLoopGroup loops) {
                    return loops;
                }
            } catch (ReflectiveOperationException e) {
                // not this Vert.x version's accessor
            }
        }
        return null;
    }
}
