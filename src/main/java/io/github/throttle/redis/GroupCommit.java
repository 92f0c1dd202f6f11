package io.github.throttle.redis;

import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Took;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Group commit of decisions bound for one Redis (in a cluster: for one hash slot). A call that finds no script
 * run in flight goes at once, alone, so a lone call never waits; calls that arrive while a run is in flight
 * queue, and when it completes they go together in the next run, up to {@link #MAX_BATCH} at a time. The
 * script decides a batch's calls one after the other, each seeing what the ones before it recorded, so
 * counting stays exact; one run carries many decisions, which saves Redis and this process the cost of a
 * command per decision.
 *
 * <p>What a caller was told is what Redis holds. Each call's answer is a future of its own, which its caller
 * completes when it stops waiting (its timeout, queueing included): a call answered so while it queued is not
 * sent; one whose reply arrives after it was answered gives back at once whatever the reply says it took
 * (weight, a reservation, seats), through the script's refund mode. A run that fails as a whole (Redis down,
 * the script refused) fails each of its calls, which then get the failure policy; nothing of it was recorded. A
 * call that fails inside the script fails alone: the calls before it keep their answers, and those after it,
 * not run, go in the next run.
 *
 * <p>When replicas must acknowledge decisions ({@link ReplicaAcks}), a run with calls that record goes with a
 * {@code WAIT} bounded by what is left of the latest deadline among its calls, and its answers are handed out once
 * the replicas acknowledged it. Not acknowledged in time, everything the run took is given back and each of its
 * calls fails ({@link ReplicaAcks.Lacking}): the failure policy. A run whose calls took nothing is answered at once.
 * The next run goes meanwhile, behind the {@code WAIT}.
 */
final class GroupCommit {

    /** The most calls one script run decides: bounds the time one run holds Redis. */
    static final int MAX_BATCH = 64;

    private final Runner runner;
    private final long expirySlackMillis;
    private final long timeoutNanos;
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    /** Whether a run is in flight; guarded by {@code this}. */
    private boolean running;

    /** A call queued, and when its caller stops waiting ({@link System#nanoTime()}). */
    private record Queued(StoreCall call, CompletableFuture<StoreReply> answer, long deadline) {
    }

    /** Sends one script run on the connection of its keys. */
    @FunctionalInterface
    interface Runner {
        /**
         * @param waitMillis when above 0, how long replicas may take to acknowledge the run ({@link ReplicaAcks});
         *                   0 for runs that are not awaited
         */
        ReplicaAcks.Sent send(SlidingWindowScript.Run run, long waitMillis);
    }

    /**
     * @param runner            sends one script run
     * @param expirySlackMillis kept after a key's last weight leaves its windows (0 in production)
     * @param timeout           how long callers wait ({@code throttle.redis.timeout}): bounds the wait for replicas
     */
    GroupCommit(Runner runner, long expirySlackMillis, Duration timeout) {
        this.runner = runner;
        this.expirySlackMillis = expirySlackMillis;
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * Decides {@code call}. The future returned is the call's own: completing it (a timeout) withdraws the call,
     * which then leaves nothing counted in Redis.
     */
    CompletableFuture<StoreReply> decide(StoreCall call) {
        Queued q = new Queued(call, new CompletableFuture<>(), System.nanoTime() + timeoutNanos);
        List<Queued> batch;
        synchronized (this) {
            queue.add(q);
            if (running) {
                return q.answer();
            }
            running = true;
            batch = next();
        }
        send(batch);
        return q.answer();
    }

    /** Takes the next batch from the queue, leaving out calls already answered (timed out); under the lock. */
    private List<Queued> next() {
        List<Queued> batch = new ArrayList<>(Math.min(queue.size(), MAX_BATCH));
        while (batch.size() < MAX_BATCH && !queue.isEmpty()) {
            Queued q = queue.poll();
            if (!q.answer().isDone()) {
                batch.add(q);
            }
        }
        if (batch.isEmpty()) {
            running = false;
        }
        return batch;
    }

    private void send(List<Queued> batch) {
        send(batch, List.of());
    }

    /**
     * Sends the batch, led by {@code refunds} (what calls answered without Redis took, given back before any later
     * decision reads it); refunds with no batch go on their own.
     */
    private void send(List<Queued> batch, List<SlidingWindowScript.Run> refunds) {
        if (batch.isEmpty()) {
            refunds.forEach(this::sendAlone);
            return;
        }
        refunds.forEach(this::sendAlone);
        while (!batch.isEmpty()) {
            SlidingWindowScript.Run run = new SlidingWindowScript.Run(expirySlackMillis);
            for (Queued q : batch) {
                run.decide(q.call());
            }
            CompletableFuture<List<Object>> sent;
            ReplicaAcks.Sent acknowledged;
            try {
                acknowledged = runner.send(run, waitMillis(batch));
                sent = acknowledged.reply().toCompletableFuture();
            } catch (RuntimeException e) {
                sent = CompletableFuture.failedFuture(e);
                acknowledged = null;
            }
            if (!sent.isDone()) {
                List<Queued> inFlight = batch;
                ReplicaAcks.Sent awaited = acknowledged;
                sent.whenComplete((replies, failed) -> {
                    Answers answers = new Answers(inFlight, replies, failed);
                    // calls not run go first; what late calls took is given back before the next run decides; that
                    // run goes before these answers are handed out, so Redis works on it meanwhile
                    List<Queued> following;
                    synchronized (this) {
                        answers.requeue(queue);
                        following = next();
                    }
                    send(following, answers.givingBackLate());
                    answers.handOnce(awaited);
                });
                return;
            }
            // answered at once (the connection refused it): no stack grows while the queue drains
            Answers answers = new Answers(batch, sent.isCompletedExceptionally() ? null : sent.join(),
                    sent.isCompletedExceptionally() ? sent.handle((r, e) -> e).join() : null);
            synchronized (this) {
                answers.requeue(queue);
            }
            answers.givingBackLate().forEach(this::sendAlone);
            answers.handOnce(acknowledged);
            synchronized (this) {
                batch = next();
            }
        }
    }

    /**
     * How long replicas may take to acknowledge a run of {@code batch}: what is left until the latest of its callers
     * stops waiting, at least 1 ms (a {@code WAIT} of 0 would wait forever); 0 when no call records (nothing to
     * acknowledge).
     */
    private static long waitMillis(List<Queued> batch) {
        long latest = Long.MIN_VALUE;
        boolean records = false;
        for (Queued q : batch) {
            records |= q.call().record();
            latest = Math.max(latest, q.deadline());
        }
        return records ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(latest - System.nanoTime())) : 0;
    }

    /**
     * Sends a refund run on its own; one that fails leaves what it would give back counted (the safe side), and is
     * logged ({@link ScriptRuns#refundFailed}).
     */
    private void sendAlone(SlidingWindowScript.Run refund) {
        try {
            runner.send(refund, 0).reply().exceptionally(e -> {
                ScriptRuns.refundFailed(e);
                return null;
            });
        } catch (RuntimeException e) {
            // the connection refused it: counted until it leaves its window, seats until their lease ends
            ScriptRuns.refundFailed(e);
        }
    }

    /** The answers of one run to its calls, read from its reply. */
    private final class Answers {
        private final List<Queued> batch;
        private final Throwable failure;
        /** Per call run: its reply, or why it failed; the calls after them were not run. */
        private final Object[] read;

        Answers(List<Queued> batch, List<Object> replies, Throwable failed) {
            this.batch = batch;
            this.failure = failureOf(replies, failed);
            this.read = new Object[failure != null ? batch.size() : Math.min(batch.size(), replies.size())];
            for (int i = 0; i < read.length; i++) {
                if (failure != null) {
                    read[i] = failure;
                    continue;
                }
                try {
                    read[i] = SlidingWindowScript.reply(SlidingWindowScript.replyOf(replies, i), batch.get(i).call());
                } catch (RuntimeException e) {
                    read[i] = e;
                }
            }
        }

        /** Puts back at the head of the queue the calls the run did not reach; under the lock. */
        void requeue(ArrayDeque<Queued> queue) {
            for (int i = batch.size() - 1; i >= read.length; i--) {
                queue.addFirst(batch.get(i));
            }
        }

        /** The refunds of the calls whose callers were answered without their reply. */
        List<SlidingWindowScript.Run> givingBackLate() {
            List<SlidingWindowScript.Run> refunds = new ArrayList<>(0);
            for (int i = 0; i < read.length; i++) {
                if (batch.get(i).answer().isDone() && read[i] instanceof StoreReply r) {
                    refund(batch.get(i).call(), r, refunds);
                    read[i] = null;
                }
            }
            return refunds;
        }

        /**
         * Hands out the answers once the run is acknowledged (at once when {@code sent} awaits nothing). A run not
         * acknowledged gives back everything it took, on the connection it ran on, and each call that took something
         * fails.
         */
        void handOnce(ReplicaAcks.Sent sent) {
            if (sent == null || sent.acknowledged() == null || !took()) {
                hand();
                return;
            }
            sent.acknowledged().whenComplete((ok, failure) -> {
                if (failure != null) {
                    Throwable why = ScriptRuns.unwrap(failure);
                    List<SlidingWindowScript.Run> refunds = new ArrayList<>();
                    for (int i = 0; i < read.length; i++) {
                        // a denial stands: it took nothing, and what it was told is what the store holds
                        if (read[i] instanceof StoreReply r && !Took.of(batch.get(i).call(), r).isEmpty()) {
                            refund(batch.get(i).call(), r, refunds);
                            read[i] = why;
                        }
                    }
                    // there, at once: a give-back routed anew could reach a promoted replica that never had the write
                    for (SlidingWindowScript.Run refund : refunds) {
                        sent.there().apply(refund).exceptionally(e -> {
                            ScriptRuns.refundFailed(e);
                            return null;
                        });
                    }
                }
                hand();
            });
        }

        /** Whether a call of the run took something (what replicas must acknowledge). */
        private boolean took() {
            for (int i = 0; i < read.length; i++) {
                if (read[i] instanceof StoreReply r && !Took.of(batch.get(i).call(), r).isEmpty()) {
                    return true;
                }
            }
            return false;
        }

        /** Hands each call its answer; one whose caller stopped waiting meanwhile gives back what it took. */
        private void hand() {
            for (int i = 0; i < read.length; i++) {
                Queued q = batch.get(i);
                if (read[i] instanceof StoreReply r) {
                    if (!q.answer().complete(r)) {
                        List<SlidingWindowScript.Run> refunds = new ArrayList<>(1);
                        refund(q.call(), r, refunds);
                        refunds.forEach(GroupCommit.this::sendAlone);
                    }
                } else if (read[i] instanceof Throwable e) {
                    q.answer().completeExceptionally(e);
                }
            }
        }
    }

    /** Adds to {@code refunds} the refund of what an allowed call took, if it took anything. */
    private void refund(StoreCall call, StoreReply reply, List<SlidingWindowScript.Run> refunds) {
        Took took = Took.of(call, reply);
        if (!took.isEmpty()) {
            refunds.add(new SlidingWindowScript.Run(expirySlackMillis).refund(took));
        }
    }

    /** Why a run failed as a whole, or null: it failed, or it answered no call at all. */
    private static Throwable failureOf(List<Object> replies, Throwable failed) {
        if (failed != null) {
            return ScriptRuns.unwrap(failed);
        }
        return replies == null || replies.isEmpty() ? new IllegalStateException("unexpected script reply: " + replies) : null;
    }
}
