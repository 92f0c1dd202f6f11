package io.github.throttle.redis;

import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Counts in Redis (standalone, or a Sentinel-managed primary): one {@code EVALSHA} of
 * {@link SlidingWindowScript} per decision, the script sent again only when the server answers
 * {@code NOSCRIPT} (after a restart, failover or {@code SCRIPT FLUSH}).
 *
 * <p>The connection is opened on first use (again if that fails) and then reconnects on its own; while Redis is unreachable,
 * commands are rejected at once rather than queued, so no caller waits for a reconnect.
 */
public final class RedisStore implements Store {

    /**
     * Upper bound of the pause between reconnect attempts. After a Sentinel failover, the first attempt
     * that asks the Sentinel finds the new primary: counting resumes at most this long after the failover.
     */
    static final Duration RECONNECT_AT_LEAST_EVERY = Duration.ofMillis(250);

    private final RedisURI uri;
    private final Duration timeout;
    private final long expirySlackMillis;
    private final ClientResources resources;
    private final RedisClient client;
    private volatile CompletableFuture<StatefulRedisConnection<String, String>> connection;

    public RedisStore(String uri, Duration timeout) {
        this(RedisURI.create(uri), timeout, 0);
    }

    public RedisStore(RedisURI uri, Duration timeout, long expirySlackMillis) {
        this.uri = uri;
        this.timeout = timeout;
        this.expirySlackMillis = expirySlackMillis;
        uri.setTimeout(timeout);
        this.resources = ClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(10), RECONNECT_AT_LEAST_EVERY, 2, TimeUnit.MILLISECONDS))
                .build();
        this.client = RedisClient.create(resources, uri);
        client.setOptions(clientOptions(timeout));
    }

    static ClientOptions clientOptions(Duration timeout) {
        return ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).keepAlive(true).build())
                .build();
    }

    @Override
    public CompletionStage<StoreReply> decide(StoreCall call) {
        String[] keys = SlidingWindowScript.keys(call);
        String[] args = SlidingWindowScript.args(call, expirySlackMillis);
        CompletableFuture<StatefulRedisConnection<String, String>> c = connection();
        CompletionStage<List<Object>> reply = c.isDone() && !c.isCompletedExceptionally()
                ? ScriptRuns.run(c.join().async(), keys, args)
                : c.thenCompose(open -> ScriptRuns.run(open.async(), keys, args));
        return reply.thenApply(r -> SlidingWindowScript.reply(r, call));
    }

    @Override
    public CompletionStage<Void> reset(String... keys) {
        return connection().thenCompose(c -> c.async().del(keys)).thenApply(n -> null);
    }

    private CompletableFuture<StatefulRedisConnection<String, String>> connection() {
        CompletableFuture<StatefulRedisConnection<String, String>> c = connection;
        // once connected, the client reconnects on its own (through a Sentinel: to the current primary);
        // opening another connection meanwhile would leave the first one reconnecting forever
        if (c == null || c.isCompletedExceptionally()) {
            synchronized (this) {
                c = connection;
                if (c == null || c.isCompletedExceptionally()) {
                    c = client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture();
                    connection = c;
                }
            }
        }
        return c;
    }

    public Duration timeout() {
        return timeout;
    }

    @Override
    public String describe() {
        return "Redis at " + RedisUris.redact(uri);
    }

    @Override
    public void close() {
        CompletableFuture<StatefulRedisConnection<String, String>> c = connection;
        if (c != null && c.isDone() && !c.isCompletedExceptionally()) {
            c.join().close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
