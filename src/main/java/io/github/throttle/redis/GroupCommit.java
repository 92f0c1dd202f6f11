package io.github.throttle.redis;

import io.github.throttle.engine.StoreCall;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Group commit of decisions bound for one Redis (in a cluster: for one hash slot). A call that finds no script
 * run in flight goes at once, alone, so a lone call never waits; calls that arrive while a run is in flight
 * queue, and when it completes they go together in the next run, up to {@link #MAX_BATCH} at a time. The
 * script decides a batch's calls one after the other, each seeing what the ones before it recorded, so
 * counting stays exact; one run carries many decisions, which saves Redis and this process the cost of a
 * command per decision.
 *
 * <p>A run that fails (Redis down, a timeout) fails each of its calls, which then get the failure policy. A
 * call's timeout runs from when it was asked, time queued included: a call answered by its timeout while it
 * queued is left out of the next run.
 */
final class GroupCommit {

    /** The most calls one script run decides: bounds the time one run holds Redis. */
    static final int MAX_BATCH = 64;

    private final Function<SlidingWindowScript.Run, CompletionStage<List<Object>>> runner;
    private final long expirySlackMillis;
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    /** Whether a run is in flight; guarded by {@code this}. */
    private boolean running;

    private record Queued(StoreCall call, String mode, CompletableFuture<List<Object>> reply) {
    }

    /**
     * @param runner            sends one script run and completes with its reply
     * @param expirySlackMillis kept after a key's last weight leaves its windows (0 in production)
     */
    GroupCommit(Function<SlidingWindowScript.Run, CompletionStage<List<Object>>> runner, long expirySlackMillis) {
        this.runner = runner;
        this.expirySlackMillis = expirySlackMillis;
    }

    /** Decides {@code call} in {@code mode}; completes with its reply in the script's form. */
    CompletableFuture<List<Object>> decide(StoreCall call, String mode) {
        Queued q = new Queued(call, mode, new CompletableFuture<>());
        List<Queued> batch;
        synchronized (this) {
            queue.add(q);
            if (running) {
                return q.reply();
            }
            running = true;
            batch = next();
        }
        send(batch);
        return q.reply();
    }

    /** Takes the next batch from the queue, leaving out calls already answered (timed out); under the lock. */
    private List<Queued> next() {
        List<Queued> batch = new ArrayList<>(Math.min(queue.size(), MAX_BATCH));
        while (batch.size() < MAX_BATCH && !queue.isEmpty()) {
            Queued q = queue.poll();
            if (!q.reply().isDone()) {
                batch.add(q);
            }
        }
        if (batch.isEmpty()) {
            running = false;
        }
        return batch;
    }

    private void send(List<Queued> batch) {
        while (!batch.isEmpty()) {
            SlidingWindowScript.Run run = new SlidingWindowScript.Run(expirySlackMillis);
            for (Queued q : batch) {
                run.decide(q.call(), q.mode());
            }
            CompletableFuture<List<Object>> sent;
            try {
                sent = runner.apply(run).toCompletableFuture();
            } catch (RuntimeException e) {
                sent = CompletableFuture.failedFuture(e);
            }
            if (!sent.isDone()) {
                List<Queued> inFlight = batch;
                sent.whenComplete((replies, failure) -> {
                    // the next run first: Redis works on it while these answers are read
                    List<Queued> following;
                    synchronized (this) {
                        following = next();
                    }
                    send(following);
                    answer(inFlight, replies, failure == null ? null : ScriptRuns.unwrap(failure));
                });
                return;
            }
            // answered at once (the connection refused it): no stack grows while the queue drains
            if (sent.isCompletedExceptionally()) {
                answer(batch, null, failureOf(sent));
            } else {
                answer(batch, sent.join(), null);
            }
            synchronized (this) {
                batch = next();
            }
        }
    }

    private static void answer(List<Queued> batch, List<Object> replies, Throwable failure) {
        for (int i = 0; i < batch.size(); i++) {
            CompletableFuture<List<Object>> reply = batch.get(i).reply();
            if (failure != null) {
                reply.completeExceptionally(failure);
                continue;
            }
            try {
                reply.complete(SlidingWindowScript.replyOf(replies, i));
            } catch (RuntimeException e) {
                reply.completeExceptionally(e);
            }
        }
    }

    private static Throwable failureOf(CompletableFuture<?> failed) {
        return ScriptRuns.unwrap(failed.handle((r, e) -> e).join());
    }
}
