package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisURI;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Redis store on event loops it is lent (Vert.x's on Quarkus), against a real redis-server. */
class BorrowedEventLoopsTest {

    private static StoreCall call(String key) {
        return StoreCall.builder(-1, true).add(key, Limit.fixed(1_000, 3_600_000), 1, 0).build();
    }

    /** Decides one call; the name of the thread its reply arrived on. */
    private static String replyThread(RedisStore store, String key) throws Exception {
        AtomicReference<String> thread = new AtomicReference<>();
        StoreReply reply = store.decide(call(key)).thenApply(r -> {
            thread.set(Thread.currentThread().getName());
            return r;
        }).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertTrue(reply.allowed());
        assertEquals(999, reply.remaining(0));
        return thread.get();
    }

    @Test
    void repliesArriveOnTheLentLoopsWhichOutliveTheStore() throws Exception {
        EventLoopGroup server = new NioEventLoopGroup(2, new DefaultThreadFactory("server-loop"));
        try (RedisProcess redis = RedisProcess.start()) {
            RedisStore store = new RedisStore(RedisURI.create(redis.uri()), Duration.ofSeconds(5), 0, Optional.of(() -> server));
            try {
                assertTrue(replyThread(store, "lent").startsWith("server-loop"), "the reply came on a thread of Lettuce's own");
            } finally {
                store.close();
            }
            assertFalse(server.isShuttingDown(), "closing the store shut the lent loops down");
            // the loops still run tasks
            CompletableFuture<String> ran = new CompletableFuture<>();
            server.execute(() -> ran.complete(Thread.currentThread().getName()));
            assertTrue(ran.get(5, TimeUnit.SECONDS).startsWith("server-loop"));
        } finally {
            server.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void withoutLoopsToBorrowTheStoreRunsOnLettucesOwnThreads() throws Exception {
        Supplier<EventLoopGroup> none = () -> null;
        Supplier<EventLoopGroup> failing = () -> {
            throw new IllegalStateException("Vert.x is not up");
        };
        try (RedisProcess redis = RedisProcess.start()) {
            for (Supplier<EventLoopGroup> lookup : java.util.List.of(none, failing)) {
                try (RedisStore store = new RedisStore(RedisURI.create(redis.uri()), Duration.ofSeconds(5), 0, Optional.of(lookup))) {
                    assertTrue(replyThread(store, "own-" + System.nanoTime()).startsWith("lettuce-"));
                }
            }
        }
    }
}
