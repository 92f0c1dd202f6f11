package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Limit;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.metrics.Meters;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TwoProcesses;
import io.github.throttle.testing.TestConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two application processes on one Redis, 20 concurrent callers each, on {@code 5 per second, maxWait 2 s}: every
 * call that proceeds does so at or after the time its reservation was made for; no window (epoch-aligned for a
 * fixed window, every window of the sub-buckets for a sliding one) admits more than 5 by those times; and at
 * least the two windows that start within the wait are filled. Times are the processes' own clocks (the client
 * time source), read once per call when its store call is built.
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
    void waitingCallersOfTwoProcessesProceedInTurnAndNoWindowAdmitsMoreThanItsLimit(String shape) throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            List<String> logs = TwoProcesses.run(Caller.class, redis, shape);
            String logA = logs.get(0);
            String logB = logs.get(1);
            List<long[]> calls = new ArrayList<>();
            calls.addAll(calls(logA));
            calls.addAll(calls(logB));
            assertEquals(2 * CALLERS, calls.size(), logA + logB);
            Limit l = limit(shape);
            Map<Long, Long> perSubBucket = new HashMap<>();
            int allowed = 0;
            for (long[] c : calls) {
                // c: allowed, now, waited, proceeded
                if (c[0] == 1) {
                    allowed++;
                    long reservedFor = c[1] + c[2];
                    assertTrue(c[3] >= reservedFor, "a call proceeded at " + c[3] + ", before its reserved time " + reservedFor);
                    assertTrue(c[2] <= MAX_WAIT, "a call waited " + c[2] + " ms");
                    perSubBucket.merge(l.subBucket(reservedFor), 1L, Long::sum);
                } else {
                    assertEquals(0, c[2], "a denied call does not wait");
                }
            }
            for (long end : perSubBucket.keySet()) {
                long admitted = 0;
                for (long s = end - l.subBuckets() + 1; s <= end; s++) {
                    admitted += perSubBucket.getOrDefault(s, 0L);
                }
                assertTrue(admitted <= LIMIT, "the window ending at sub-bucket " + end + " admitted " + admitted + ": " + perSubBucket);
            }
            assertTrue(allowed >= 2 * LIMIT, "only " + allowed + " of " + 2 * CALLERS + " calls proceeded: " + perSubBucket);
        }
    }

    private static List<long[]> calls(String out) {
        List<long[]> calls = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("call ")) {
                String[] p = line.split(" ");
                calls.add(new long[] {Long.parseLong(p[1]), Long.parseLong(p[2]), Long.parseLong(p[3]), Long.parseLong(p[4])});
            }
        }
        return calls;
    }

    /** The system clock, remembering per thread the last time it gave: the now of the store call that thread built. */
    static final class RememberingClock implements InstantSource {
        final ThreadLocal<Long> last = new ThreadLocal<>();

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public long millis() {
            long now = System.currentTimeMillis();
            last.set(now);
            return now;
        }
    }

    /**
     * One application process: meets the other at a Redis barrier, then 20 callers at once each make one call that
     * may wait; prints per call whether it was allowed, its store call's now, its wait and when it proceeded.
     */
    public static final class Caller {
        public static void main(String[] args) throws Exception {
            String uri = args[0];
            String me = args[1];
            Limit limit = limit(args[2]);
            // no deny cache: the clock is then read once per call on its thread, for its store call
            Config config = TestConfig.of(ThrottleSettings.TIME_SOURCE, "client", "throttle.deny-cache.size", "0");
            RememberingClock clock = new RememberingClock();
            ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
            try (RedisStore store = new RedisStore(uri, Duration.ofSeconds(10));
                 Limiter limiter = Bootstrap.assemble(ThrottleSettings.read(config), config, store, clock,
                         type -> null, m -> false, Meters.NONE, Optional.empty());
                 RedisClient c = RedisClient.create(uri); StatefulRedisConnection<String, String> conn = c.connect()) {
                limiter.acquire("warm", "user:warm", 1, true, List.of(limit), 0).toCompletableFuture().join();
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
                        Decision d = limiter.acquire("partner", "user:partner", 1, true, List.of(limit), MAX_WAIT)
                                .toCompletableFuture().join();
                        long proceeded = System.currentTimeMillis();
                        return "call " + (d.allowed() ? 1 : 0) + " " + clock.last.get() + " " + d.waitedMillis() + " " + proceeded;
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
