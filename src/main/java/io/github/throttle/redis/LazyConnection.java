package io.github.throttle.redis;

import io.lettuce.core.api.StatefulConnection;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A connection opened on first use, and again only if opening failed: once open, Lettuce reconnects it on
 * its own (through a Sentinel: to the current primary), and opening another meanwhile would leave the first
 * one reconnecting forever.
 */
final class LazyConnection<C extends StatefulConnection<String, String>> {

    private final Supplier<CompletionStage<C>> open;
    private volatile CompletableFuture<C> connection;

    LazyConnection(Supplier<CompletionStage<C>> open) {
        this.open = open;
    }

    CompletableFuture<C> get() {
        CompletableFuture<C> c = connection;
        if (c == null || c.isCompletedExceptionally()) {
            synchronized (this) {
                c = connection;
                if (c == null || c.isCompletedExceptionally()) {
                    c = open.get().toCompletableFuture();
                    connection = c;
                }
            }
        }
        return c;
    }

    void close() {
        CompletableFuture<C> c = connection;
        if (c != null && c.isDone() && !c.isCompletedExceptionally()) {
            c.join().close();
        }
    }
}
