package io.github.throttle.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a script ({@link SlidingWindowScript}, {@link SharedSettingsScript}) by its SHA-1 and sends its text only when the server answers
 * {@code NOSCRIPT}. With keys, the {@code EVAL} goes where the {@code EVALSHA} went (in a cluster: the
 * node serving the keys' slot), so each server caches the script the first time it needs it.
 */
final class ScriptRuns {

    private ScriptRuns() {
    }

    static CompletionStage<List<Object>> run(RedisScriptingAsyncCommands<String, String> commands, String[] keys, String[] args) {
        return run(commands, SlidingWindowScript.SHA1, SlidingWindowScript.TEXT, keys, args);
    }

    static CompletionStage<List<Object>> run(RedisScriptingAsyncCommands<String, String> commands, String sha1, String text,
                                             String[] keys, String[] args) {
        // one future of our own, completed from the command's callback: no stage per step
        CompletableFuture<List<Object>> result = new CompletableFuture<>();
        commands.<List<Object>>evalsha(sha1, ScriptOutputType.MULTI, keys, args).whenComplete((reply, failure) -> {
            if (failure == null) {
                result.complete(reply);
            } else if (unwrap(failure) instanceof RedisNoScriptException) {
                // EVAL both runs and caches the script on this server
                commands.<List<Object>>eval(text, ScriptOutputType.MULTI, keys, args).whenComplete((again, error) -> {
                    if (error == null) {
                        result.complete(again);
                    } else {
                        result.completeExceptionally(error);
                    }
                });
            } else {
                result.completeExceptionally(failure);
            }
        });
        return result;
    }

    /**
     * Notes a give-back Redis did not take (a refund of a late reply, of a cross-slot denial): what it would have
     * given back stays counted until it leaves its window, a seat until its lease ends — the safe side. Logged at
     * WARNING at most once a minute, with how many failed since the last line.
     */
    static void refundFailed(Throwable failure) {
        long failed = REFUNDS_FAILED.incrementAndGet();
        long now = System.nanoTime();
        long last = refundFailureLogged;
        if (last != 0 && now - last < TimeUnit.MINUTES.toNanos(1)) {
            return;
        }
        refundFailureLogged = now;
        long since = failed - REFUNDS_FAILED_LOGGED.getAndSet(failed);
        Throwable cause = unwrap(failure);
        LOG.log(System.Logger.Level.WARNING, "Throttle: Redis did not take " + since + " give-back(s) ("
                + cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage())
                + "); what they would have given back stays counted until it leaves its window, seats until their lease ends");
    }

    /** How many give-backs Redis did not take, since the start. */
    static long refundsFailed() {
        return REFUNDS_FAILED.get();
    }

    private static final System.Logger LOG = System.getLogger("io.github.throttle");
    private static final AtomicLong REFUNDS_FAILED = new AtomicLong();
    private static final AtomicLong REFUNDS_FAILED_LOGGED = new AtomicLong();
    private static volatile long refundFailureLogged;

    static Throwable unwrap(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
