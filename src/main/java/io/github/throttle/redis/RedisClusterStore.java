package io.github.throttle.redis;

import io.github.throttle.engine.Leased;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Taken;
import io.github.throttle.engine.Took;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.async.RedisHashAsyncCommands;
import io.lettuce.core.api.async.RedisKeyAsyncCommands;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.StringCodec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Counts in a Redis Cluster: one {@code EVALSHA} of {@link SlidingWindowScript} per hash slot a call touches,
 * sent to the primary serving that slot; calls for one slot that queue while a run for it is in flight go
 * together in the next run ({@link GroupCommit}). Each node caches the script the first time it answers
 * {@code NOSCRIPT}. The client follows {@code MOVED} and {@code ASK} redirections and refreshes its view of
 * the slots when it meets one, on reconnects, and every 30 s, so a slot migration
 * or a failover surfaces no error to callers; a script refused with {@code TRYAGAIN} (its keys are split
 * between two nodes in the middle of a migration) is sent again shortly.
 *
 * <h2>Calls whose keys live in several slots</h2>
 * Identity keys carry no hash tag, so the keys of one call (say an address and a user) usually hash to
 * different slots, often on different primaries, and no single script can see them all. The rule:
 * <ol>
 *   <li>The keys are grouped by slot, and each group is decided by one script run, atomically within
 *       the group. All groups run at once.</li>
 *   <li>The call is allowed iff every group allows it. Then every group has recorded its weight.</li>
 *   <li>Otherwise each group that allowed (and so recorded) is refunded: the script runs again in refund
 *       mode and subtracts the weight from the very sub-buckets it was recorded in. The call then
 *       completes as denied, with each refunded group's figures as they were before the call.</li>
 *   <li>A group that fails (node unreachable, timeout) fails the call, after refunding the groups that
 *       recorded.</li>
 * </ol>
 * What stays atomic: everything within one slot (all limits of one identity, always). Across slots, a
 * limit is never exceeded, because weight is recorded before it is known whether the other slots allow;
 * the price is that between a record and its refund (one round trip) the refunded weight is visible to
 * other calls, which may then be denied although, decided one at a time, they would have fitted. Once
 * refunds are done, counts are exact: as if the denied call had never been recorded. A refund that cannot
 * reach its node leaves the weight counted until it leaves its window (the safe side). With the Redis
 * clock, each group is timed by its own primary's clock.
 *
 * <h2>Where a run goes</h2>
 * A script run goes to the primary that the slot map names for its slot, following redirections ({@link SlotRuns}),
 * so that a {@code WAIT} behind it ({@code throttle.redis.replica-acks}) reaches the node that ran it. Other
 * commands go through the client's routing.
 */
final class RedisClusterStore extends LettuceStore<StatefulRedisClusterConnection<String, String>> {

    private final List<RedisURI> seeds;
    private final long expirySlackMillis;
    private final Duration timeout;
    private final SlotRuns slotRuns;
    private final RedisClusterClient client;
    /** One group commit per hash slot: the calls of one run must share a slot. */
    private final Map<Integer, GroupCommit> commits = new ConcurrentHashMap<>();

    public RedisClusterStore(List<RedisURI> seeds, Duration timeout) {
        this(seeds, timeout, 0);
    }

    /** @param expirySlackMillis kept after a key's last weight leaves its windows (tests) */
    public RedisClusterStore(List<RedisURI> seeds, Duration timeout, long expirySlackMillis) {
        this(seeds, timeout, expirySlackMillis, 0, ReplicationEvents.NONE);
    }

    /**
     * @param replicaAcks {@code throttle.redis.replica-acks}: replicas that must hold a decision before its caller is told
     * @param events      told of each wait for replicas and of each promotion seen
     */
    public RedisClusterStore(List<RedisURI> seeds, Duration timeout, long expirySlackMillis, int replicaAcks,
                             ReplicationEvents events) {
        super(replicaAcks, events, false);
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("a Redis Cluster needs at least one seed URI");
        }
        this.seeds = List.copyOf(seeds);
        this.expirySlackMillis = expirySlackMillis;
        for (RedisURI seed : this.seeds) {
            seed.setTimeout(timeout);
        }
        this.timeout = timeout;
        this.client = RedisClusterClient.create(resources(), this.seeds);
        client.setOptions(ClientSetup.clusterOptions(timeout));
        this.slotRuns = new SlotRuns(client, new ReplicaAcks(replicaAcks, events));
        watchPrimaries(address -> connection.get()
                .thenCompose(c -> c.getConnectionAsync(address.getHostString(), address.getPort()))
                .thenCompose(node -> node.async().info("replication")));
    }

    @Override
    RedisClusterClient client() {
        return client;
    }

    /** The asynchronous connect needs the slot map first; loading it never blocks the caller. */
    @Override
    CompletionStage<StatefulRedisClusterConnection<String, String>> connect() {
        return client.refreshPartitionsAsync().thenCompose(loaded -> client.connectAsync(StringCodec.UTF8));
    }

    /**
     * The future returned is the call's own, as {@link GroupCommit}'s: completing it (a timeout) withdraws the
     * call, whichever slots it spans.
     */
    @Override
    public CompletionStage<StoreReply> decide(StoreCall call) {
        SlotGroups groups = SlotGroups.of(call);
        if (groups.size() == 1) {
            return commit(call).decide(call);
        }
        CompletableFuture<StoreReply> answer = new CompletableFuture<>();
        connection.get().whenComplete((c, failure) -> {
            if (failure != null) {
                answer.completeExceptionally(failure);
            } else if (!answer.isDone()) {
                decideAcrossSlots(c, groups, answer);
            }
        });
        return answer;
    }

    /** The group commit of the slot of {@code call}'s keys (one slot). */
    private GroupCommit commit(StoreCall call) {
        return commits.computeIfAbsent(SlotHash.getSlot(call.key(0)), slot -> new GroupCommit(
                (run, waitMillis) -> slotRuns.send(decisions, slot, run, waitMillis), expirySlackMillis, timeout));
    }

    /**
     * Decides a call spanning several slots into {@code answer}. When the caller stops waiting ({@code answer}
     * completed first), the parts still queued are withdrawn, and every part that recorded is refunded.
     */
    private void decideAcrossSlots(StatefulRedisClusterConnection<String, String> c, SlotGroups groups,
                                   CompletableFuture<StoreReply> answer) {
        List<StoreCall> parts = groups.parts();
        List<CompletableFuture<StoreReply>> runs = new ArrayList<>(parts.size());
        for (StoreCall part : parts) {
            runs.add(commit(part).decide(part));
        }
        answer.whenComplete((r, e) -> {
            if (e != null) {
                runs.forEach(run -> run.completeExceptionally(e));
            }
        });
        CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).whenComplete((ignored, failed) -> {
            // every run has completed, each either way
            Throwable failure = null;
            StoreReply[] replies = new StoreReply[parts.size()];
            boolean allowed = true;
            for (int g = 0; g < parts.size(); g++) {
                CompletableFuture<StoreReply> run = runs.get(g);
                if (run.isCompletedExceptionally()) {
                    failure = failure != null ? failure : ScriptRuns.unwrap(run.handle((x, e) -> e).join());
                    allowed = false;
                } else {
                    replies[g] = run.join();
                    allowed &= replies[g].allowed();
                }
            }
            try {
                if (allowed && answer.complete(merge(groups, replies, true))) {
                    return;
                }
                if (groups.whole().record()) {
                    // denied, failed, or its caller answered meanwhile: every part that recorded gives it back. The
                    // refunds are sent before the answer is given, so this instance's next calls on those slots
                    // meet them; the answer does not wait for their replies (a slow refund must not turn a denial
                    // into the failure policy). One that fails leaves weight counted: the safe side.
                    for (int g = 0; g < parts.size(); g++) {
                        if (replies[g] != null && replies[g].allowed()) {
                            refund(parts.get(g), replies[g]).exceptionally(e -> {
                                ScriptRuns.refundFailed(e);
                                return null;
                            });
                        }
                    }
                }
                if (failure != null) {
                    answer.completeExceptionally(failure);
                } else {
                    answer.complete(merge(groups, replies, false));
                }
            } catch (RuntimeException | Error e) {
                // never leave the caller waiting for its timeout
                answer.completeExceptionally(e);
            }
        });
    }

    /** Gives back what an allowed part took. */
    private CompletionStage<List<Object>> refund(StoreCall part, StoreReply reply) {
        return refund(new SlidingWindowScript.Run(expirySlackMillis).refund(Took.of(part, reply)));
    }

    /**
     * Puts the groups' figures back in the call's pair order. In a denied call, a group that allowed has
     * been refunded, so its figures are those of a report: the remaining weight before this call, and no
     * wait when nothing else is counted.
     */
    private static StoreReply merge(SlotGroups groups, StoreReply[] replies, boolean allowed) {
        StoreCall whole = groups.whole();
        long[] figures = new long[whole.pairCount() * 3];
        Taken[] taken = allowed && whole.record() ? new Taken[whole.pairCount()] : null;
        for (int g = 0; g < replies.length; g++) {
            StoreCall part = groups.parts().get(g);
            StoreReply r = replies[g];
            boolean refunded = !allowed && r.allowed() && whole.record();
            for (int q = 0; q < part.pairCount(); q++) {
                int p = part.limitIndex(q);
                long remaining = r.remaining(q);
                long wait = r.waitMillis(q);
                if (refunded) {
                    remaining += part.countWeight(q);
                    if (remaining == part.bound(q)) {
                        wait = 0;
                    }
                }
                figures[p * 3] = remaining;
                figures[p * 3 + 1] = wait;
                figures[p * 3 + 2] = r.violated(q) ? 1 : 0;
                if (taken != null) {
                    taken[p] = r.taken(q);
                }
            }
        }
        return new StoreReply(allowed, figures, taken);
    }

    /** Sends a give-back on the shared connection: never behind a {@code WAIT}, and not awaited by replicas. */
    private CompletionStage<List<Object>> refund(SlidingWindowScript.Run run) {
        return slotRuns.send(connection, SlotHash.getSlot(run.keys()[0]), run, 0).reply();
    }

    /** A lease of one slot's keys: one run of its own to the slot's primary, as decisions go. */
    @Override
    public CompletionStage<Leased> lease(StoreCall call, long most, long lifeMillis) {
        SlidingWindowScript.Run run = new SlidingWindowScript.Run(expirySlackMillis).lease(call, most, lifeMillis);
        return leased(call, slotRuns.send(decisions, SlotHash.getSlot(call.key(0)), run, timeout.toMillis()));
    }

    /** Gives back slot by slot (a failed part leaves its weight counted: the safe side). */
    @Override
    public CompletionStage<Void> giveBack(Took took) {
        List<CompletableFuture<List<Object>>> runs = new ArrayList<>();
        for (Took part : took.byGroup(SlotHash::getSlot)) {
            runs.add(refund(new SlidingWindowScript.Run(expirySlackMillis).refund(part)).toCompletableFuture());
        }
        return CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new));
    }

    @Override
    public CompletionStage<Void> reset(String... keys) {
        // the cluster API splits a multi-key DEL by slot
        return connection.get().thenCompose(c -> c.async().del(keys)).thenApply(n -> null);
    }

    @Override
    RedisHashAsyncCommands<String, String> hashes(StatefulRedisClusterConnection<String, String> connection) {
        return connection.async();
    }

    @Override
    RedisScriptingAsyncCommands<String, String> scripts(StatefulRedisClusterConnection<String, String> connection) {
        return connection.async();
    }

    @Override
    RedisKeyAsyncCommands<String, String> keys(StatefulRedisClusterConnection<String, String> connection) {
        return connection.async();
    }

    @Override
    public String kind() {
        return "redis-cluster";
    }

    @Override
    public CompletionStage<Void> prepare() {
        return connection.get().thenCompose(c -> c.async().scriptLoad(SlidingWindowScript.TEXT))
                .thenCompose(sha -> prepareDecisions());
    }

    @Override
    public String describe() {
        return "Redis Cluster at " + seeds.stream().map(RedisUris::redact).collect(Collectors.joining(","));
    }
}
