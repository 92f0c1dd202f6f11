package io.github.throttle.redis;

import io.lettuce.core.api.StatefulRedisConnection;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Sends a group commit's runs to a real Redis; while {@link #hold} is not done, a run waits for it before it goes,
 * so that the calls made meanwhile queue behind it and go together in the next run. Records each run's size.
 */
final class HeldRuns {

    private final StatefulRedisConnection<String, String> connection;
    final List<Integer> sizes = new ArrayList<>();
    volatile CompletableFuture<Void> hold = CompletableFuture.completedFuture(null);

    HeldRuns(StatefulRedisConnection<String, String> connection) {
        this.connection = connection;
    }

    ReplicaAcks.Sent send(SlidingWindowScript.Run run, long waitMillis) {
        synchronized (sizes) {
            sizes.add(run.size());
        }
        return new ReplicaAcks.Sent(hold.thenCompose(go -> ScriptRuns.run(connection.async(), run.keys(), run.args())), null);
    }
}
