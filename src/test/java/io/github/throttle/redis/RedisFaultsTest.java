package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreCallTimer;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.ProbingDecider;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Redis going away, stalling, restarting empty or dropping its scripts, with real redis-server processes. */
public class RedisFaultsTest {

    /** The client time of calls that must count in one window, however long the test takes. */
    private static final long SIX_PM = Instant.parse("2026-11-22T18:00:00Z").toEpochMilli();

    private final Limit limit = Limit.fixed(1_000_000, 3_600_000);
    private final List<Limit> quotas = List.of(limit);

    private static StoreCall call(String key) {
        return StoreCall.builder(-1, true).add(key, Limit.fixed(1_000_000, 3_600_000), 1, 0).build();
    }

    /** How the store calls ended, as the metrics see them. */
    private static final class Outcomes implements StoreCallTimer {
        private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

        @Override
        public void record(String outcome, long nanos) {
            counts.computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
        }

        int of(String outcome) {
            AtomicInteger n = counts.get(outcome);
            return n == null ? 0 : n.get();
        }

        /** Store calls that got no answer: refused, failed or cut off by the timeout. */
        int unanswered() {
            return of(FAILURE) + of(TIMEOUT);
        }

        @Override
        public String toString() {
            return counts.toString();
        }
    }

    /**
     * Waits until the store answers a call: on a loaded machine the first call of a JVM (class loading,
     * connecting, {@code NOSCRIPT} then {@code EVAL}) can take longer than the short timeout of a test about
     * that timeout, which is not what it is about. Asks every 20 ms for at most 30 s.
     */
    private static void warm(RedisStore store) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                store.decide(call("warm")).toCompletableFuture().join();
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > until) {
                    throw e;
                }
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    @Test
    void theTimeoutIsAHardBoundOnAStalledRedis() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             RedisStore store = new RedisStore(redis.uri(), Duration.ofMillis(200));
             Admin admin = new Admin(redis)) {
            warm(store);
            Outcomes outcomes = new Outcomes();
            Decider decider = new Decider(store, new MutableClock(0), false, Duration.ofMillis(200), FailurePolicy.ALLOW,
                    Duration.ofSeconds(1), outcomes);
            // Redis takes no command for a minute: longer than the test may take, so only the timeout answers
            admin.connection.sync().clientPause(60_000);
            List<CompletableFuture<Decision>> calls = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                calls.add(decider.ask(call("k" + i), quotas).toCompletableFuture());
            }
            for (CompletableFuture<Decision> c : calls) {
                Decision d = c.get(60, TimeUnit.SECONDS);
                assertTrue(d.allowed() && d.isUnmetered(), "a stalled store gives the failure decision");
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("200 calls on a stalled Redis answered within " + ms + " ms (timeout 200 ms); store calls: " + outcomes);
            assertEquals(0, outcomes.of(StoreCallTimer.SUCCESS), outcomes.toString());
            assertTrue(outcomes.unanswered() >= 1, "the calls asked the stalled store: " + outcomes);
            // The bound under test is 200 ms; 10 s is the margin a loaded 2-CPU machine needs, and still far
            // below the minute that waiting for Redis would take.
            assertTrue(ms < 10_000, "answered after " + ms + " ms");
        }
    }

    /**
     * A call the script cannot decide (its key holds a string: Redis refuses the script's commands on it) fails
     * alone: it gets the failure policy, and every other caller is still decided by Redis — no failure episode
     * starts, even under {@code deny}.
     */
    @Test
    void oneCallsScriptFailureIsThatCallsAlone() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             RedisStore store = new RedisStore(redis.uri(), Duration.ofSeconds(10));
             Admin admin = new Admin(redis)) {
            warm(store);
            Outcomes outcomes = new Outcomes();
            // the open period is longer than the test: an episode, once started, would refuse every call after it
            Decider decider = new Decider(store, new MutableClock(0), false, Duration.ofSeconds(10), FailurePolicy.DENY,
                    Duration.ofMinutes(10), outcomes);
            admin.connection.sync().set("broken", "not a hash");
            Decision failed = decider.ask(call("broken"), quotas).toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertFalse(failed.allowed(), "the failing call gets the failure policy: " + failed);
            assertEquals(1, outcomes.of(StoreCallTimer.FAILURE), outcomes.toString());
            for (int i = 0; i < 3; i++) {
                Decision d = decider.ask(call("fine"), quotas).toCompletableFuture().get(30, TimeUnit.SECONDS);
                assertTrue(d.allowed() && !d.isUnmetered(), "decided by Redis: " + d);
                assertEquals(limit.limit() - 1 - i, d.remaining());
            }
        }
    }

    @Test
    void afterAnEmptyRestartCountingResumesByItselfAndNoCallFails() {
        try (RedisProcess redis = RedisProcess.start();
             RedisStore store = new RedisStore(redis.uri(), Duration.ofSeconds(10))) {
            Outcomes outcomes = new Outcomes();
            // every call asks Redis; a call that failed would complete exceptionally and fail the test
            ProbingDecider decider = new ProbingDecider(store, false, outcomes);
            assertEquals(limit.limit() - 1, decider.decideUntilCounted(call("r"), quotas).remaining());
            redis.restart();
            Decision d = decider.decideUntilCounted(call("r"), quotas);
            System.out.println("counting again after an empty restart; store calls: " + outcomes);
            // empty Redis: the script was loaded again and counting starts over
            assertEquals(limit.limit() - 1, d.remaining());
            assertTrue(d.allowed());
        }
    }

    @Test
    void scriptFlushUnderLoadCausesNoErrorAndLosesNoCount() throws Exception {
        int rounds = 20;
        int threads = 8;
        int perThread = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (RedisProcess redis = RedisProcess.start();
             RedisStore store = new RedisStore(redis.uri(), Duration.ofSeconds(10));
             Admin admin = new Admin(redis)) {
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            for (int r = 0; r < rounds; r++) {
                // each round starts without the script, so that eight threads meet NOSCRIPT at once; a second
                // flush is sent while they run and lands wherever it lands
                assertEquals("OK", admin.connection.sync().scriptFlush());
                assertFalse(admin.connection.sync().scriptExists(SlidingWindowScript.SHA1).get(0));
                List<CompletableFuture<Void>> workers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    String key = "flush:" + t;
                    workers.add(CompletableFuture.runAsync(() -> {
                        for (int i = 0; i < perThread; i++) {
                            try {
                                StoreCall c = StoreCall.builder(SIX_PM, true).add(key, limit, 1, 0).build();
                                assertTrue(store.decide(c).toCompletableFuture().join().allowed());
                            } catch (Throwable e) {
                                errors.add(e);
                            }
                        }
                    }, pool));
                }
                RedisFuture<String> midRound = admin.connection.async().scriptFlush();
                CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                assertEquals("OK", midRound.get(60, TimeUnit.SECONDS));
                assertTrue(errors.isEmpty(), "round " + r + ": " + errors.size() + " errors, first: " + errors.peek());
            }
            for (int t = 0; t < threads; t++) {
                StoreCall peek = StoreCall.builder(SIX_PM, false).add("flush:" + t, limit, 1, 0).build();
                assertEquals(limit.limit() - (long) rounds * perThread, store.decide(peek).toCompletableFuture().join().remaining(0),
                        "thread " + t + ": every call counted once, none lost or doubled by a script sent again");
            }
            System.out.println(rounds * threads * perThread + " calls, " + 2 * rounds + " SCRIPT FLUSH meanwhile, 0 errors");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void duringAnOutageCallsPassUncountedUntilRedisAnswersAgainAndNoLogLineShowsThePassword() {
        try (LogCapture log = new LogCapture();
             RedisProcess redis = RedisProcess.start("--requirepass", "s3cret-pw");
             RedisStore store = new RedisStore(RedisURI.create("redis://:s3cret-pw@127.0.0.1:" + redis.port()), Duration.ofSeconds(10), 0)) {
            Outcomes outcomes = new Outcomes();
            ProbingDecider decider = new ProbingDecider(store, false, outcomes);
            assertEquals(limit.limit() - 1, decider.decideUntilCounted(call("l"), quotas).remaining());
            int answered = outcomes.of(StoreCallTimer.SUCCESS);
            int unanswered = outcomes.unanswered();
            redis.kill();
            for (int i = 0; i < 50; i++) {
                Decision d = decider.ask(call("l"), quotas);
                assertTrue(d.allowed() && d.isUnmetered(), "with on-store-failure=allow, calls pass uncounted");
            }
            assertEquals(answered, outcomes.of(StoreCallTimer.SUCCESS), outcomes.toString());
            assertEquals(unanswered + 50, outcomes.unanswered(), "each call asked the store and got no answer: " + outcomes);
            redis.restart();
            // an empty Redis: counting starts over
            assertEquals(limit.limit() - 1, decider.decideUntilCounted(call("l"), quotas).remaining());
            for (int i = 2; i <= 10; i++) {
                assertEquals(limit.limit() - i, decider.ask(call("l"), quotas).remaining());
            }
            assertTrue(outcomes.of(StoreCallTimer.SUCCESS) >= answered + 10, outcomes.toString());

            List<String> warnings = log.at(Level.WARNING);
            assertFalse(warnings.isEmpty(), "the outage is logged");
            assertTrue(warnings.get(0).contains("Redis at redis://127.0.0.1:" + redis.port())
                    && warnings.get(0).contains("allowed without counting"), warnings.get(0));
            assertTrue(log.all().stream().noneMatch(m -> m.contains("s3cret-pw")), "a log line shows the password: " + log.all());
            System.out.println("logged: " + warnings.get(0));
        }
    }

    /** A plain connection for administration. */
    private static final class Admin implements AutoCloseable {
        final RedisClient client = RedisClient.create();
        final StatefulRedisConnection<String, String> connection;

        Admin(RedisProcess redis) {
            connection = client.connect(RedisURI.create(redis.uri()));
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown();
        }
    }
}
