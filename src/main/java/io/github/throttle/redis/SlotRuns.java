package io.github.throttle.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Sends a script run of one hash slot to the primary that the slot map names for it, on the node connection of a
 * cluster connection, so that a {@code WAIT} behind it ({@link ReplicaAcks}) reaches the node that ran it. The run
 * goes again where the cluster says: {@code MOVED} reloads the slot map first, {@code ASK} sends it to the node named
 * after {@code ASKING}, {@code TRYAGAIN} (the slot's keys split between two nodes in the middle of a migration)
 * shortly after.
 */
final class SlotRuns {

    private static final int ATTEMPTS = 50;
    private static final Executor TRYAGAIN_DELAY = CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS);

    private final RedisClusterClient client;
    private final ReplicaAcks acks;

    SlotRuns(RedisClusterClient client, ReplicaAcks acks) {
        this.client = client;
        this.acks = acks;
    }

    /** Sends {@code run} of {@code slot} on {@code via}; {@code waitMillis} as {@link GroupCommit.Runner#send}'s. */
    ReplicaAcks.Sent send(LazyConnection<StatefulRedisClusterConnection<String, String>> via, int slot,
                          SlidingWindowScript.Run run, long waitMillis) {
        return send(via, slot, run, waitMillis, null, ATTEMPTS);
    }

    /** Where a redirection sends a run: the node named, and whether {@code ASKING} goes first. */
    private record Redirect(String host, int port, boolean asking) {

        /** The redirection a failure says, or null: {@code MOVED <slot> <host>:<port>}, {@code ASK ...}. */
        static Redirect of(Throwable failure) {
            String m = failure instanceof RedisCommandExecutionException ? failure.getMessage() : null;
            if (m == null || !(m.startsWith("MOVED ") || m.startsWith("ASK "))) {
                return null;
            }
            String[] parts = m.split(" ");
            int colon = parts.length < 3 ? -1 : parts[2].lastIndexOf(':');
            if (colon < 0) {
                return null;
            }
            return new Redirect(parts[2].substring(0, colon), Integer.parseInt(parts[2].substring(colon + 1).trim()),
                    m.startsWith("ASK "));
        }
    }

    /**
     * Sends a run of the slot's calls on {@code via} to the slot's primary ({@code to}: the node a redirection
     * named), and again where a redirection or {@code TRYAGAIN} says, at most {@code attemptsLeft} times.
     */
    ReplicaAcks.Sent send(LazyConnection<StatefulRedisClusterConnection<String, String>> via, int slot,
                                    SlidingWindowScript.Run run, long waitMillis, Redirect to, int attemptsLeft) {
        CompletableFuture<ReplicaAcks.Sent> first = via.get().thenCompose(c -> {
            if (to != null) {
                return c.getConnectionAsync(to.host(), to.port());
            }
            RedisClusterNode primary = c.getPartitions().getMasterBySlot(slot);
            if (primary == null) {
                return CompletableFuture.failedFuture(new IllegalStateException("no primary serves hash slot " + slot));
            }
            return c.getConnectionAsync(primary.getNodeId());
        }).thenApply(node -> {
            if (to != null && to.asking()) {
                node.async().asking();
            }
            return acks.send(node.async(), run, waitMillis);
        });
        CompletableFuture<List<Object>> reply = new CompletableFuture<>();
        CompletableFuture<Void> acknowledged = acks.replicas() == 0 || waitMillis <= 0 ? null : new CompletableFuture<>();
        // the connection of the node that ran it (through redirections)
        CompletableFuture<Function<SlidingWindowScript.Run, CompletionStage<List<Object>>>> ranOn = new CompletableFuture<>();
        first.whenComplete((sent, failure) -> {
            if (failure != null) {
                fail(failure, reply, acknowledged);
                ranOn.completeExceptionally(failure);
                return;
            }
            sent.reply().whenComplete((r, error) -> {
                if (error == null) {
                    ranOn.complete(sent.there());
                    reply.complete(r);
                    if (acknowledged != null) {
                        forward(sent.acknowledged(), acknowledged);
                    }
                    return;
                }
                Throwable cause = ScriptRuns.unwrap(error);
                Redirect next = Redirect.of(cause);
                boolean tryAgain = cause instanceof RedisCommandExecutionException && cause.getMessage() != null
                        && cause.getMessage().startsWith("TRYAGAIN");
                if (attemptsLeft <= 1 || (next == null && !tryAgain)) {
                    fail(cause, reply, acknowledged);
                    ranOn.completeExceptionally(cause);
                    return;
                }
                // MOVED: the slot map is out of date; TRYAGAIN: the slot's keys are being moved, which takes milliseconds
                CompletableFuture<?> before = next != null && !next.asking() ? client.refreshPartitionsAsync().toCompletableFuture()
                        : tryAgain ? CompletableFuture.runAsync(() -> { }, TRYAGAIN_DELAY) : CompletableFuture.completedFuture(null);
                before.whenComplete((x, e) -> {
                    ReplicaAcks.Sent again = send(via, slot, run, waitMillis, next, attemptsLeft - 1);
                    ranOn.complete(again.there());
                    forward(again.reply(), reply);
                    if (acknowledged != null) {
                        forward(again.acknowledged(), acknowledged);
                    }
                });
            });
        });
        return new ReplicaAcks.Sent(reply, acknowledged, acknowledged == null ? null
                : refund -> ranOn.thenCompose(there -> there.apply(refund)));
    }

    private static void fail(Throwable failure, CompletableFuture<?> reply, CompletableFuture<?> acknowledged) {
        reply.completeExceptionally(failure);
        if (acknowledged != null) {
            acknowledged.completeExceptionally(failure);
        }
    }

    private static <T> void forward(CompletionStage<T> from, CompletableFuture<T> to) {
        from.whenComplete((v, e) -> {
            if (e == null) {
                to.complete(v);
            } else {
                to.completeExceptionally(e);
            }
        });
    }
}
