package io.github.throttle.redis;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * {@code throttle.redis.replica-acks}: how many replicas must hold a run's writes before its callers are told.
 * A run of decisions goes with {@code WAIT n ms} right behind it on the same connection, in one write, so the
 * {@code WAIT} covers the run whatever else that connection carries (a reconnect between the two cannot happen: a
 * {@code WAIT} on a new connection would cover nothing). The {@code WAIT}'s reply is read as long as the run's
 * own ({@link ClientSetup#replyDeadline}): callers who stopped waiting meanwhile get what their call took given
 * back, as for a late reply.
 *
 * <p>Only the connection that sends decisions carries {@code WAIT}s, which block it until the replicas answer or
 * the time is up: settings, tallies, admin calls and give-backs go on another.
 */
final class ReplicaAcks {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final int replicas;
    private final ReplicationEvents events;
    /** Whether the last {@code WAIT} fell short: logged when that starts and when it ends. */
    private volatile boolean lacking;

    /** Fewer replicas than {@code throttle.redis.replica-acks} acknowledged a run in time: its callers get the failure policy. */
    static final class Lacking extends IllegalStateException {
        Lacking(String message) {
            super(message);
        }
    }

    /**
     * A run sent; when it is acknowledged (null when nothing waits for replicas); and how to send another run on the
     * connection it ran on, following no redirection (null when nothing waits for replicas): what a run not
     * acknowledged took is given back there, to the server that holds it, and nowhere else — after a failover, the
     * new primary may never have had it, and a give-back there would take weight that others' calls hold.
     */
    record Sent(CompletionStage<List<Object>> reply, CompletionStage<Void> acknowledged,
                Function<SlidingWindowScript.Run, CompletionStage<List<Object>>> there) {

        Sent(CompletionStage<List<Object>> reply, CompletionStage<Void> acknowledged) {
            this(reply, acknowledged, null);
        }
    }

    ReplicaAcks(int replicas, ReplicationEvents events) {
        this.replicas = replicas;
        this.events = events;
    }

    /** {@code throttle.redis.replica-acks}. */
    int replicas() {
        return replicas;
    }

    /**
     * Sends a script run; when replicas must acknowledge and {@code waitMillis > 0}, {@code WAIT} goes right behind
     * it. The acknowledgement completes exceptionally ({@link Lacking}, or the connection's failure) when the run
     * cannot be shown to be on enough replicas.
     */
    Sent send(RedisAsyncCommands<String, String> commands, SlidingWindowScript.Run run, long waitMillis) {
        String[] keys = run.keys();
        String[] args = run.args();
        if (replicas == 0 || waitMillis <= 0) {
            return new Sent(ScriptRuns.run(commands, keys, args), null);
        }
        CompletableFuture<List<Object>> reply = new CompletableFuture<>();
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        long started = System.nanoTime();
        RedisFuture<List<Object>> sent = commands.evalsha(SlidingWindowScript.SHA1, ScriptOutputType.MULTI, keys, args);
        RedisFuture<Long> waited = commands.waitForReplication(replicas, waitMillis);
        sent.whenComplete((r, failure) -> {
            if (failure != null && ScriptRuns.unwrap(failure) instanceof RedisNoScriptException) {
                // the first WAIT covered nothing of this run: EVAL caches the script, and its own WAIT follows it
                follow(commands.eval(SlidingWindowScript.TEXT, ScriptOutputType.MULTI, keys, args),
                        commands.waitForReplication(replicas, waitMillis), started, waitMillis, reply, acknowledged);
            } else {
                follow(sent, waited, started, waitMillis, reply, acknowledged);
            }
        });
        return new Sent(reply, acknowledged, again -> ScriptRuns.run(commands, again.keys(), again.args()));
    }

    /** Completes {@code reply} by the script's, then {@code acknowledged} by the {@code WAIT}'s behind it. */
    private void follow(RedisFuture<List<Object>> script, RedisFuture<Long> waited, long started, long waitMillis,
                        CompletableFuture<List<Object>> reply, CompletableFuture<Void> acknowledged) {
        script.whenComplete((r, failure) -> {
            if (failure == null) {
                reply.complete(r);
                settle(waited, started, waitMillis, acknowledged);
            } else {
                reply.completeExceptionally(failure);
                acknowledged.completeExceptionally(failure);
            }
        });
    }

    /** Completes {@code acknowledged} by the {@code WAIT}'s reply, and records it. */
    private void settle(RedisFuture<Long> waited, long started, long waitMillis, CompletableFuture<Void> acknowledged) {
        waited.whenComplete((count, failure) -> {
            long nanos = System.nanoTime() - started;
            boolean enough = failure == null && count != null && count >= replicas;
            events.waited(enough, nanos);
            if (enough) {
                if (lacking) {
                    lacking = false;
                    LOG.log(Level.INFO, "Throttle: " + replicas + " replica(s) acknowledge decisions again");
                }
                acknowledged.complete(null);
                return;
            }
            String why = failure != null ? "WAIT failed: " + ScriptRuns.unwrap(failure)
                    : count + " replica(s) acknowledged within " + waitMillis + " ms, "
                    + replicas + " must (throttle.redis.replica-acks)";
            if (!lacking) {
                lacking = true;
                LOG.log(Level.WARNING, "Throttle: decisions are not on enough replicas (" + why + "); each such call gets the"
                        + " failure policy (throttle.on-store-failure) and what it took is given back, until they are");
            }
            acknowledged.completeExceptionally(new Lacking(why));
        });
    }
}
