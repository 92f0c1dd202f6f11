package io.github.throttle.redis;

import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Gives Lettuce the server's own event loops (Vert.x's on Quarkus) for its sockets, so that Redis replies
 * arrive on threads that already run instead of waking threads of Lettuce's own. The loops are borrowed:
 * releasing or shutting down never touches them. They are looked up when Lettuce first asks (the first
 * connection), since the server may make them only after Throttle starts. Sockets the borrowed loops cannot
 * serve (they are not there, or Lettuce prefers a native transport they do not use, or a Unix socket) get
 * Lettuce's own loops, made on first need.
 */
final class BorrowedEventLoops implements EventLoopGroupProvider {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final Supplier<EventLoopGroup> lookup;
    private Optional<EventLoopGroup> loops;
    private DefaultEventLoopGroupProvider own;

    /** @param lookup the server's event loops; may fail or give null when there are none */
    BorrowedEventLoops(Supplier<EventLoopGroup> lookup) {
        this.lookup = lookup;
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <T extends EventLoopGroup> T allocate(Class<T> type) {
        Optional<EventLoopGroup> borrowed = borrowed();
        if (borrowed.isPresent() && type.isInstance(borrowed.get())) {
            LOG.log(System.Logger.Level.INFO, "Throttle: Redis I/O runs on the server's event loops");
            return (T) borrowed.get();
        }
        LOG.log(System.Logger.Level.INFO, "Throttle: Redis I/O runs on Lettuce's own threads ("
                + (borrowed.isPresent() ? "the server's event loops are not " + type.getSimpleName() : "the server's event loops are not reachable") + ")");
        return own().allocate(type);
    }

    @Override
    public synchronized int threadPoolSize() {
        Optional<EventLoopGroup> borrowed = borrowed();
        if (borrowed.isEmpty()) {
            return own().threadPoolSize();
        }
        int n = 0;
        for (var ignored : borrowed.get()) {
            n++;
        }
        return n;
    }

    @Override
    public synchronized Future<Boolean> release(EventExecutorGroup group, long quietPeriod, long timeout, TimeUnit unit) {
        boolean borrowedGroup = loops != null && loops.isPresent() && loops.get() == group;
        return borrowedGroup || own == null ? done() : own.release(group, quietPeriod, timeout, unit);
    }

    @Override
    public synchronized Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit unit) {
        return own == null ? done() : own.shutdown(quietPeriod, timeout, unit);
    }

    private Optional<EventLoopGroup> borrowed() {
        if (loops == null) {
            try {
                loops = Optional.ofNullable(lookup.get());
            } catch (RuntimeException | LinkageError e) {
                LOG.log(System.Logger.Level.DEBUG, "Throttle: the server's event loops are not reachable (" + e + ")");
                loops = Optional.empty();
            }
        }
        return loops;
    }

    private DefaultEventLoopGroupProvider own() {
        if (own == null) {
            own = new DefaultEventLoopGroupProvider(DefaultClientResources.DEFAULT_IO_THREADS);
        }
        return own;
    }

    private static Future<Boolean> done() {
        return ImmediateEventExecutor.INSTANCE.newSucceededFuture(true);
    }
}
