package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Taken;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TwoProcesses;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two application processes on one Redis, 20 concurrent callers each, on {@code 5 per second, maxWait 2 s}, each
 * call timed by its own process's clock: no window (epoch-aligned for a fixed window, every window of the
 * sub-buckets for a sliding one) counts more than 5, by the sub-bucket the store says each call was recorded or
 * reserved in; every call proceeds at or after its reserved time and not before its sub-bucket starts (a call
 * whose clock was behind the newest counted sub-bucket is counted there, and answered after it started); at
 * least the two windows that start within the wait are filled.
 */
class WaitingAcrossProcessesTest {

    static final int CALLERS = 20;
    static final long LIMIT = 5;
    static final long MAX_WAIT = 2000;

    static Limit limit(String shape) {
        return shape.equals("fixed") ? Limit.fixed(LIMIT, 1000) : Limit.of(LIMIT, 1000, 250);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed", "sliding"})
    void waitingCallersOfTwoProcessesProceedInTurnAndNoWindowCountsMoreThanItsLimit(String shape) throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            List<String> logs = TwoProcesses.run(Caller.class, redis, shape);
            List<long[]> calls = new ArrayList<>();
            calls.addAll(calls(logs.get(0)));
            calls.addAll(calls(logs.get(1)));
            assertEquals(2 * CALLERS, calls.size(), String.join("", logs));
            Limit l = limit(shape);
            Map<Long, Long> perSubBucket = new HashMap<>();
            int allowed = 0;
            for (long[] c : calls) {
                // c: allowed, now, delay, sub-bucket (-1 - b when reserved), proceeded
                if (c[0] == 0) {
                    assertEquals(0, c[2], "a denied call does not wait");
                    continue;
                }
                allowed++;
                long b = c[3];
                assertTrue(c[2] <= MAX_WAIT, "a call waited " + c[2] + " ms");
                assertTrue(c[4] >= c[1] + c[2], "a call proceeded at " + c[4] + ", before its reserved time " + (c[1] + c[2]));
                assertTrue(c[4] >= b * l.precisionMillis(), "a call proceeded at " + c[4] + ", before its sub-bucket " + b + " started");
                perSubBucket.merge(b, 1L, Long::sum);
            }
            for (long end : perSubBucket.keySet()) {
                long counted = 0;
                for (long s = end - l.subBuckets() + 1; s <= end; s++) {
                    counted += perSubBucket.getOrDefault(s, 0L);
                }
                // every call (allowed, now, delay, sub-bucket, proceeded) in the message: a window over its limit is
                // read from them
                assertTrue(counted <= LIMIT, "the window ending at sub-bucket " + end + " counts " + counted + ": " + perSubBucket
                        + "; calls:\n" + String.join("", logs));
            }
            assertTrue(allowed >= 2 * LIMIT, "only " + allowed + " of " + 2 * CALLERS + " calls proceeded: " + perSubBucket);
        }
    }

    /** The sub-bucket a call was counted or reserved in. */
    private static long subBucket(Taken t) {
        return t instanceof Taken.Reserved r ? r.subBucket() : ((Taken.Counted) t).subBucket();
    }

    private static List<long[]> calls(String out) {
        List<long[]> calls = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("call ")) {
                String[] p = line.split(" ");
                long[] c = new long[p.length - 1];
                for (int i = 1; i < p.length; i++) {
                    c[i - 1] = Long.parseLong(p[i]);
                }
                calls.add(c);
            }
        }
        return calls;
    }

    /**
     * One application process: meets the other at a Redis barrier, then 20 callers at once each make one call that
     * may wait, timed by this process's clock, and proceed when the store says; prints per call whether it was
     * allowed, its now, its delay, the sub-bucket it was counted in and when it proceeded.
     */
    public static final class Caller {
        public static void main(String[] args) throws Exception {
            String uri = args[0];
            String me = args[1];
            Limit limit = limit(args[2]);
            ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
            try (RedisStore store = new RedisStore(uri, Duration.ofSeconds(10));
                 RedisClient c = RedisClient.create(uri); StatefulRedisConnection<String, String> conn = c.connect()) {
                store.decide(StoreCall.builder(-1, false).add("warm", limit, 0, 0).build()).toCompletableFuture().join();
                String other = me.equals("a") ? "b" : "a";
                conn.setTimeout(Duration.ofSeconds(90));
                conn.sync().rpush("barrier:" + other, "go");
                if (conn.sync().blpop(60, "barrier:" + me) == null) {
                    throw new IllegalStateException("the other process never came");
                }
                CountDownLatch start = new CountDownLatch(1);
                List<Future<String>> results = new ArrayList<>();
                for (int i = 0; i < CALLERS; i++) {
                    results.add(callers.submit(() -> {
                        start.await();
                        long now = System.currentTimeMillis();
                        // returnable: the store tells the sub-bucket it counted the call in
                        StoreCall call = StoreCall.builder(now, true).maxWait(MAX_WAIT).add("partner", limit, 1, 0, true).build();
                        StoreReply r = store.decide(call).toCompletableFuture().join();
                        if (!r.allowed()) {
                            return "call 0 " + now + " " + r.delayMillis() + " 0 0";
                        }
                        TimeUnit.MILLISECONDS.sleep(r.delayMillis());
                        return "call 1 " + now + " " + r.delayMillis() + " " + subBucket(r.taken(0)) + " " + System.currentTimeMillis();
                    }));
                }
                start.countDown();
                for (Future<String> r : results) {
                    System.out.println(r.get(60, TimeUnit.SECONDS));
                }
            } finally {
                callers.shutdownNow();
            }
        }
    }
}
