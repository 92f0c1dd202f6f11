package io.github.throttle.redis;

import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Leased;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.Took;
import io.github.throttle.engine.SharedChanges;
import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.Store;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisHashAsyncCommands;
import io.lettuce.core.api.async.RedisKeyAsyncCommands;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.resource.ClientResources;

import reactor.core.Disposable;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What the standalone and the cluster store share: their client's resources, the connection opened on first use,
 * how their failures are told, and how they close.
 *
 * @param <C> the connection: to one server, or to a cluster
 */
abstract class LettuceStore<C extends StatefulConnection<String, String>> implements Store, SharedState {

    private final ClientResources resources = ClientSetup.resources();
    final LazyConnection<C> connection = new LazyConnection<>(this::connect);
    /** Where decisions go: {@link #connection}, or one of their own when they carry {@code WAIT}s. */
    final LazyConnection<C> decisions;
    private final PrimaryWatch watch;
    private volatile Disposable watching;

    /** @param replicaAcks {@code throttle.redis.replica-acks}: above 0, decisions get a connection of their own */
    LettuceStore(int replicaAcks, ReplicationEvents events, boolean onePrimary) {
        this.watch = new PrimaryWatch(replicaAcks, events, onePrimary);
        this.decisions = replicaAcks > 0 ? new LazyConnection<>(this::connect) : connection;
    }

    /** The resources to create the client with. */
    final ClientResources resources() {
        return resources;
    }

    /** The client, created with {@link #resources()}. */
    abstract AbstractRedisClient client();

    /** Opens the connection; called on first use, and again only if opening failed. */
    abstract CompletionStage<C> connect();

    /** The hash commands of the connection (in a cluster: routed by key). */
    abstract RedisHashAsyncCommands<String, String> hashes(C connection);

    /** The key commands of the connection (in a cluster: routed by key). */
    abstract RedisKeyAsyncCommands<String, String> keys(C connection);

    /** The scripting commands of the connection (in a cluster: routed by the first key). */
    abstract RedisScriptingAsyncCommands<String, String> scripts(C connection);

    /**
     * Reads {@code INFO replication} from each server this store's connections reach, on every connect and
     * reconnect, for {@link PrimaryWatch}. Called once, by the constructor of the store.
     *
     * @param info the reply of the server at an address, or null for a server that holds no counts (a sentinel)
     */
    final void watchPrimaries(Function<InetSocketAddress, CompletionStage<String>> info) {
        watching = resources.eventBus().get()
                .filter(e -> e instanceof ConnectionActivatedEvent)
                .subscribe(e -> {
                    if (((ConnectionActivatedEvent) e).remoteAddress() instanceof InetSocketAddress address) {
                        CompletionStage<String> reply = info.apply(address);
                        if (reply != null) {
                            // a reply that does not come (the connection dropped again) is read on the next connect
                            reply.thenAccept(text -> watch.reached(address.getHostString() + ":" + address.getPort(), text));
                        }
                    }
                });
    }

    /**
     * A lease's reply, once the replicas acknowledged it when they must ({@code acknowledged} not null). Not
     * acknowledged: what it took is given back on the connection it ran on, and the lease fails.
     */
    final CompletionStage<Leased> leased(StoreCall call, ReplicaAcks.Sent sent) {
        CompletionStage<Leased> leased = sent.reply().thenApply(r -> SlidingWindowScript.leased(SlidingWindowScript.replyOf(r, 0), call));
        if (sent.acknowledged() == null) {
            return leased;
        }
        return leased.thenCompose(l -> sent.acknowledged().handle((ok, failure) -> {
            if (failure == null) {
                return l;
            }
            Took took = Took.of(l.call(), l.reply());
            if (!took.isEmpty()) {
                sent.there().apply(new SlidingWindowScript.Run(0).refund(took)).exceptionally(e -> {
                    ScriptRuns.refundFailed(e);
                    return null;
                });
            }
            throw new java.util.concurrent.CompletionException(ScriptRuns.unwrap(failure));
        }));
    }

    /** Loads the script on the connection of decisions too, when it is not the shared one. */
    final CompletionStage<Void> prepareDecisions() {
        return decisions == connection ? CompletableFuture.completedFuture(null)
                : decisions.get().thenCompose(c -> scripts(c).scriptLoad(SlidingWindowScript.TEXT)).thenApply(sha -> null);
    }

    /** {@code SCAN} for the keys of counts under the prefix, and {@code DEL} each page (a cluster: every primary). */
    @Override
    public final CompletionStage<Void> resetAll(KeyCodec codec) {
        ScanArgs args = ScanArgs.Builder.matches(codec.countsPattern()).limit(1000);
        return connection.get().thenComposeAsync(c -> deleteFrom(keys(c), ScanCursor.INITIAL, args));
    }

    /**
     * Deletes one page of keys, then the next. Each scan is sent off the client's I/O threads: a cluster's scan may
     * open a connection to the next node, which must not be waited for on such a thread.
     */
    private static CompletionStage<Void> deleteFrom(RedisKeyAsyncCommands<String, String> keys, ScanCursor cursor, ScanArgs args) {
        return keys.scan(cursor, args)
                .thenCompose(page -> page.getKeys().isEmpty() ? CompletableFuture.completedFuture(page)
                        : keys.del(page.getKeys().toArray(String[]::new)).thenApply(n -> page))
                .thenComposeAsync(page -> page.isFinished() ? CompletableFuture.<Void>completedFuture(null)
                        : deleteFrom(keys, page, args));
    }

    /** The counters under {@code key}: {@code HGETALL}. */
    @Override
    public final CompletionStage<Map<String, String>> readShared(String key) {
        return connection.get().thenCompose(c -> hashes(c).hgetall(key));
    }

    /** The field, the version and the note of what changed, in one run of {@link SharedSettingsScript}. */
    @Override
    public final CompletionStage<Long> writeShared(String key, String field, String value) {
        return connection.get().thenCompose(c -> ScriptRuns.run(scripts(c), SharedSettingsScript.SHA1, SharedSettingsScript.TEXT,
                new String[] {key}, SharedSettingsScript.write(field, value))).thenApply(SharedSettingsScript::written);
    }

    /**
     * The version first ({@code HGET}): a poll that finds nothing new costs that alone, as it did before changes were
     * noted, and runs no script; when the version moved, one run of {@link SharedSettingsScript}, whatever the
     * number of changes.
     */
    @Override
    public final CompletionStage<SharedChanges> sharedChanges(String key, long held) {
        return connection.get().thenCompose(c -> hashes(c).hget(key, VERSION).thenCompose(version -> {
            // no hash yet is version 0, as the script reads it: an instance holding it has nothing to read
            if (String.valueOf(held).equals(version == null ? "0" : version)) {
                return CompletableFuture.completedFuture(SharedChanges.none(held));
            }
            return ScriptRuns.run(scripts(c), SharedSettingsScript.SHA1, SharedSettingsScript.TEXT, new String[] {key},
                    SharedSettingsScript.read(held)).thenApply(SharedSettingsScript::changes);
        }));
    }

    /** One {@code HINCRBY} per field, then {@code PEXPIRE}: sent together, answered once all are. */
    @Override
    public final CompletionStage<Void> addShared(String key, Map<String, Long> deltas, long ttlMillis) {
        return connection.get().thenCompose(c -> {
            RedisHashAsyncCommands<String, String> h = hashes(c);
            CompletableFuture<?>[] sent = new CompletableFuture<?>[deltas.size() + 1];
            int i = 0;
            for (Map.Entry<String, Long> d : deltas.entrySet()) {
                sent[i++] = h.hincrby(key, d.getKey(), d.getValue()).toCompletableFuture();
            }
            sent[i] = keys(c).pexpire(key, ttlMillis).toCompletableFuture();
            return CompletableFuture.allOf(sent);
        });
    }

    @Override
    public final String describe(Throwable failure) {
        return RedisFailures.describe(failure);
    }

    @Override
    public final System.Logger.Level severity(Throwable failure) {
        return RedisFailures.severity(failure);
    }

    @Override
    public final void close() {
        Disposable w = watching;
        if (w != null) {
            w.dispose();
        }
        connection.close();
        if (decisions != connection) {
            decisions.close();
        }
        client().shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
