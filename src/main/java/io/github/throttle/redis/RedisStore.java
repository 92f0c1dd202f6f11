package io.github.throttle.redis;

import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Took;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.async.RedisHashAsyncCommands;
import io.lettuce.core.api.async.RedisKeyAsyncCommands;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Counts in Redis (standalone, or a Sentinel-managed primary): {@code EVALSHA} of {@link SlidingWindowScript},
 * one run per decision or, while a run is in flight, one for the decisions that queued meanwhile
 * ({@link GroupCommit}); the script sent again only when the server answers {@code NOSCRIPT} (after a restart,
 * failover or {@code SCRIPT FLUSH}).
 *
 * <p>The connection is opened on first use (again if that fails) and then reconnects on its own; while Redis
 * is unreachable, commands are rejected at once rather than queued, so no caller waits for a reconnect.
 */
public final class RedisStore extends LettuceStore<StatefulRedisConnection<String, String>> {

    private final RedisURI uri;
    private final long expirySlackMillis;
    private final RedisClient client;
    private final GroupCommit commit;

    public RedisStore(String uri, Duration timeout) {
        this(RedisURI.create(uri), timeout, 0);
    }

    /** @param expirySlackMillis kept after a key's last weight leaves its windows (tests) */
    public RedisStore(RedisURI uri, Duration timeout, long expirySlackMillis) {
        this.uri = uri;
        this.expirySlackMillis = expirySlackMillis;
        uri.setTimeout(timeout);
        this.client = RedisClient.create(resources(), uri);
        client.setOptions(ClientSetup.options(timeout));
        this.commit = new GroupCommit(this::run, expirySlackMillis);
    }

    @Override
    RedisClient client() {
        return client;
    }

    @Override
    CompletionStage<StatefulRedisConnection<String, String>> connect() {
        return client.connectAsync(StringCodec.UTF8, uri);
    }

    @Override
    public CompletionStage<StoreReply> decide(StoreCall call) {
        return commit.decide(call);
    }

    @Override
    public CompletionStage<Void> giveBack(Took took) {
        return run(new SlidingWindowScript.Run(expirySlackMillis).refund(took)).thenApply(reply -> null);
    }

    private CompletionStage<List<Object>> run(SlidingWindowScript.Run run) {
        return connection.get().thenCompose(c -> ScriptRuns.run(c.async(), run.keys(), run.args()));
    }

    @Override
    public CompletionStage<Void> reset(String... keys) {
        return connection.get().thenCompose(c -> c.async().del(keys)).thenApply(n -> null);
    }

    @Override
    RedisHashAsyncCommands<String, String> hashes(StatefulRedisConnection<String, String> connection) {
        return connection.async();
    }

    @Override
    RedisScriptingAsyncCommands<String, String> scripts(StatefulRedisConnection<String, String> connection) {
        return connection.async();
    }

    @Override
    RedisKeyAsyncCommands<String, String> keys(StatefulRedisConnection<String, String> connection) {
        return connection.async();
    }

    @Override
    public String kind() {
        return uri.getSentinels().isEmpty() ? "redis" : "redis-sentinel";
    }

    @Override
    public CompletionStage<Void> prepare() {
        return connection.get().thenCompose(c -> c.async().scriptLoad(SlidingWindowScript.TEXT)).thenApply(sha -> null);
    }

    @Override
    public String describe() {
        return "Redis at " + RedisUris.redact(uri);
    }
}
