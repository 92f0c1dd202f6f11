package io.github.throttle.redis;

import io.github.throttle.CallEnding;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.Took;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TwoProcesses;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two JVMs share one Redis; in each round both fire 200 concurrent calls at one identity whose limit is
 * 100: exactly 100 (or exactly the weight that fits) is allowed in total, every round, while calls that
 * queue behind a script run in flight go together in one run (group commit).
 */
class TwoProcessesRaceTest {

    static final int ROUNDS = 20;
    static final int CALLS = 200;
    static final long LIMIT = 100;

    @Test
    void twoProcessesRacingOnOneIdentityAreAllowedExactlyTheLimit() throws Exception {
        race("plain");
    }

    @Test
    void withMixedWeightsTheTotalAllowedWeightNeverExceedsTheLimit() throws Exception {
        race("weighted");
    }

    /** Two in three allowed calls succeed and give their weight back: failures counted never exceed the limit. */
    @Test
    void whenSuccessesGiveTheirWeightBackTheFailuresCountedNeverExceedTheLimit() throws Exception {
        race("give-back");
    }

    private void race(String mode) throws Exception {
        boolean weighted = mode.equals("weighted");
        try (RedisProcess redis = RedisProcess.start()) {
            List<String> logs = TwoProcesses.run(Racer.class, redis, mode);
            String logA = logs.get(0);
            String logB = logs.get(1);
            long[] totalsA = totals(logA);
            long[] totalsB = totals(logB);
            try (RedisClient c = RedisClient.create(redis.uri());
                 StatefulRedisConnection<byte[], byte[]> conn = c.connect(ByteArrayCodec.INSTANCE)) {
                byte[] tag = SlidingWindowScript.tag(Limit.fixed(LIMIT, 3_600_000)).getBytes(StandardCharsets.UTF_8);
                for (int r = 0; r < ROUNDS; r++) {
                    long allowed = totalsA[r] + totalsB[r];
                    long counted = WindowHeader.parse(conn.sync().hget(("race:" + r).getBytes(StandardCharsets.UTF_8), tag)).counted();
                    assertEquals(counted, allowed, "round " + r + ": allowed weight equals counted weight");
                    if (weighted) {
                        // weights 1..3: the window is full to within less than the largest weight
                        assertTrue(allowed <= LIMIT, "round " + r + ": allowed weight " + allowed + " exceeds the limit");
                        assertTrue(allowed > LIMIT - 3, "round " + r + ": allowed weight " + allowed + " leaves room for a call");
                    } else if (!mode.equals("plain")) {
                        // here "allowed" is the weight of the calls that failed and kept it
                        assertTrue(allowed <= LIMIT, "round " + r + ": failures counted " + allowed + " exceed the limit");
                        assertTrue(allowed > 0, "round " + r + ": no failure was counted");
                    } else {
                        assertEquals(LIMIT, allowed, "round " + r);
                    }
                }
                // calls fired at once travel together: fewer script runs than decisions (give-backs run alone)
                String stats = conn.sync().info("commandstats");
                long runs = calls(stats, "evalsha") + calls(stats, "eval");
                assertTrue(runs < 2L * ROUNDS * CALLS, runs + " script runs for " + 2 * ROUNDS * CALLS + " racing decisions");
            }
            System.out.println(mode + ": " + ROUNDS + " rounds of 2 x " + CALLS + " racing calls: exact every round");
        }
    }

    /** The calls of a command in an INFO commandstats reply (0 when it has none). */
    private static long calls(String commandStats, String command) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(commandStats);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static long[] totals(String out) {
        long[] t = new long[ROUNDS];
        for (String line : out.split("\n")) {
            if (line.startsWith("round ")) {
                String[] p = line.split(" ");
                t[Integer.parseInt(p[1])] = Long.parseLong(p[2]);
            }
        }
        return t;
    }

    /**
     * One application process ({@code a} or {@code b}): meets the other at a Redis barrier, then fires 200 calls at once; prints the
     * weight it was allowed (mode give-back: the weight of the allowed calls that failed and kept it).
     */
    public static final class Racer {
        public static void main(String[] args) throws Exception {
            String uri = args[0];
            String mode = args[2];
            boolean weighted = mode.equals("weighted");
            boolean givesBack = mode.equals("give-back");
            Limit limit = Limit.fixed(LIMIT, 3_600_000);
            try (RedisStore store = new RedisStore(uri, Duration.ofSeconds(10));
                 RedisClient c = RedisClient.create(uri); StatefulRedisConnection<String, String> conn = c.connect()) {
                store.decide(StoreCall.builder(-1, false).add("warm", limit, 0, 0).build()).toCompletableFuture().join();
                String me = args[1];
                String other = me.equals("a") ? "b" : "a";
                // BLPOP may wait as long as it likes: the connection must not give up first
                conn.setTimeout(Duration.ofSeconds(90));
                for (int r = 0; r < ROUNDS; r++) {
                    // the barrier: tell the other process it may go, wait (blocked in Redis) until it says so too
                    conn.sync().rpush("barrier:" + r + ":" + other, "go");
                    if (conn.sync().blpop(60, "barrier:" + r + ":" + me) == null) {
                        throw new IllegalStateException("the other process never came");
                    }
                    List<CompletableFuture<Long>> calls = new ArrayList<>();
                    for (int i = 0; i < CALLS; i++) {
                        long w = weighted ? 1 + (i % 3) : 1;
                        boolean succeeds = givesBack && i % 3 != 0;
                        StoreCall call = StoreCall.builder(-1, true).add("race:" + r, limit, w, 0, givesBack).build();
                        calls.add(store.decide(call).toCompletableFuture().thenCompose(reply -> {
                            if (!reply.allowed()) {
                                return CompletableFuture.completedFuture(0L);
                            }
                            if (!succeeds) {
                                return CompletableFuture.completedFuture(w);
                            }
                            return store.giveBack(Took.of(call, reply).only(EnumSet.of(CallEnding.Part.WEIGHT))).thenApply(x -> 0L);
                        }));
                    }
                    long allowed = 0;
                    for (CompletableFuture<Long> f : calls) {
                        allowed += f.join();
                    }
                    System.out.println("round " + r + " " + allowed);
                }
            }
        }
    }
}
