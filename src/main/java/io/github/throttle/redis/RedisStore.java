package io.github.throttle.redis;

import io.github.throttle.engine.Leased;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Counts in Redis (standalone, or a Sentinel-managed primary): {@code EVALSHA} of {@link SlidingWindowScript},
 * one run per decision or, while a run is in flight, one for the decisions that queued meanwhile
 * ({@link GroupCommit}); the script sent again only when the server answers {@code NOSCRIPT} (after a restart,
 * failover or {@code SCRIPT FLUSH}).
 *
 * <p>The connection is opened on first use (again if that fails) and then reconnects on its own; while Redis
 * is unreachable, commands are rejected at once rather than queued, so no caller waits for a reconnect.
 *
 * <p>With {@code throttle.redis.replica-acks} above 0, decisions go on a connection of their own, which carries
 * their {@code WAIT}s ({@link ReplicaAcks}); everything else goes on the other.
 */
public final class RedisStore extends LettuceStore<StatefulRedisConnection<String, String>> {

    private final RedisURI uri;
    private final long expirySlackMillis;
    private final RedisClient client;
    private final GroupCommit commit;
    private final ReplicaAcks acks;

    public RedisStore(String uri, Duration timeout) {
        this(RedisURI.create(uri), timeout, 0);
    }

    /** @param expirySlackMillis kept after a key's last weight leaves its windows (tests) */
    public RedisStore(RedisURI uri, Duration timeout, long expirySlackMillis) {
        this(uri, timeout, expirySlackMillis, 0, ReplicationEvents.NONE);
    }

    /**
     * @param replicaAcks {@code throttle.redis.replica-acks}: replicas that must hold a decision before its caller is told
     * @param events      told of each wait for replicas and of each promotion seen
     */
    public RedisStore(RedisURI uri, Duration timeout, long expirySlackMillis, int replicaAcks, ReplicationEvents events) {
        super(replicaAcks, events, true);
        this.uri = uri;
        this.expirySlackMillis = expirySlackMillis;
        uri.setTimeout(timeout);
        this.client = RedisClient.create(resources(), uri);
        client.setOptions(ClientSetup.options(timeout));
        this.acks = new ReplicaAcks(replicaAcks, events);
        this.commit = new GroupCommit(this::send, expirySlackMillis, timeout);
        watchPrimaries(address -> uri.getSentinels().stream().anyMatch(s -> s.getPort() == address.getPort()) ? null
                : connection.get().thenCompose(c -> c.async().info("replication")));
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

    /** One run of its own on the connection of decisions; with replicas that must acknowledge, awaited as decisions are. */
    @Override
    public CompletionStage<Leased> lease(StoreCall call, long most, long lifeMillis) {
        return leased(call, send(new SlidingWindowScript.Run(expirySlackMillis).lease(call, most, lifeMillis), uri.getTimeout().toMillis()));
    }

    /** Not awaited by replicas, and never queued behind a {@code WAIT}. */
    @Override
    public CompletionStage<Void> giveBack(Took took) {
        SlidingWindowScript.Run run = new SlidingWindowScript.Run(expirySlackMillis).refund(took);
        return connection.get().thenCompose(c -> ScriptRuns.run(c.async(), run.keys(), run.args())).thenApply(reply -> null);
    }

    private ReplicaAcks.Sent send(SlidingWindowScript.Run run, long waitMillis) {
        CompletableFuture<StatefulRedisConnection<String, String>> c = decisions.get();
        if (c.isDone() && !c.isCompletedExceptionally()) {
            // the usual case: sent at once, on the caller's thread
            return acks.send(c.join().async(), run, waitMillis);
        }
        CompletableFuture<ReplicaAcks.Sent> sent = c.thenApply(open -> acks.send(open.async(), run, waitMillis));
        boolean awaited = acks.replicas() > 0 && waitMillis > 0;
        return new ReplicaAcks.Sent(sent.thenCompose(ReplicaAcks.Sent::reply),
                awaited ? sent.thenCompose(ReplicaAcks.Sent::acknowledged) : null,
                awaited ? again -> sent.thenCompose(s -> s.there().apply(again)) : null);
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
        return connection.get().thenCompose(c -> c.async().scriptLoad(SlidingWindowScript.TEXT))
                .thenCompose(sha -> prepareDecisions());
    }

    @Override
    public String describe() {
        return "Redis at " + RedisUris.redact(uri);
    }
}
