package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Redis going away, stalling, restarting empty or dropping its scripts, with real redis-server processes. */
class RedisFaultsTest {

    private final Limit limit = Limit.fixed(1_000_000, 3_600_000);
    private final List<Limit> quotas = List.of(limit);

    private static StoreCall call(String key) {
        return StoreCall.builder(-1, true).add(key, Limit.fixed(1_000_000, 3_600_000), 1, 0).build();
    }

    /**
     * Opens the store's connection and loads the script, retrying for up to 10 s: on a loaded machine the
     * first call of a JVM (class loading, connecting, {@code NOSCRIPT} then {@code EVAL}) can take longer
     * than the short timeouts these tests use, which is not what they are about.
     */
    private static void warm(RedisStore store) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                store.decide(call("warm")).toCompletableFuture().join();
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > until) {
                    throw e;
                }
            }
        }
    }

    @Test
    void theTimeoutIsAHardBoundOnAStalledRedis() {
        try (RedisProcess redis = RedisProcess.start();
             RedisStore store = new RedisStore(redis.uri(), Duration.ofMillis(200))) {
            warm(store);
            Decider decider = new Decider(store, InstantSource.system(), false, Duration.ofMillis(200), false, Duration.ofSeconds(1));
            assertFalse(decider.decide(call("warm"), quotas).toCompletableFuture().join().isUnmetered());
            command(redis, "CLIENT", "PAUSE", "3000", "ALL");
            long worst = 0;
            List<CompletableFuture<Decision>> calls = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                calls.add(decider.decide(call("k" + i), quotas).toCompletableFuture());
            }
            for (CompletableFuture<Decision> c : calls) {
                assertTrue(c.join().isUnmetered(), "a stalled store gives the failure decision");
            }
            worst = (System.nanoTime() - start) / 1_000_000;
            System.out.println("200 calls on a stalled Redis answered within " + worst + " ms (timeout 200 ms)");
            assertTrue(worst < 200 + 1000, "answered after " + worst + " ms");
        }
    }

    @Test
    void afterAnEmptyRestartCountingResumesByItselfAndNoCallFails() {
        try (RedisProcess redis = RedisProcess.start();
             RedisStore store = new RedisStore(redis.uri(), Duration.ofMillis(300))) {
            warm(store);
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofMillis(300), false, Duration.ofSeconds(1));
            assertEquals(limit.limit() - 1, decider.decide(call("r"), quotas).toCompletableFuture().join().remaining());
            redis.restart();
            long restarted = System.nanoTime();
            int unmetered = 0;
            Decision d;
            do {
                // the open period is measured on the decider's clock: let it pass at once
                clock.advanceMillis(1000);
                d = decider.decide(call("r"), quotas).toCompletableFuture().join();
                assertTrue(d.allowed(), "a failure never reaches the caller with on-store-failure=allow");
                if (d.isUnmetered()) {
                    unmetered++;
                }
            } while (d.isUnmetered() && System.nanoTime() - restarted < TimeUnit.SECONDS.toNanos(5));
            long ms = (System.nanoTime() - restarted) / 1_000_000;
            System.out.println("counting again " + ms + " ms after an empty restart; " + unmetered + " calls passed uncounted meanwhile");
            assertFalse(d.isUnmetered(), "still not counting after 5 s");
            // empty Redis: the script was loaded again and counting starts over
            assertEquals(limit.limit() - 1, d.remaining());
        }
    }

    @Test
    void scriptFlushUnderLoadCausesNoError() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             RedisStore store = new RedisStore(redis.uri(), Duration.ofSeconds(2))) {
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger flushes = new AtomicInteger();
            CompletableFuture<Void> flusher = CompletableFuture.runAsync(() -> {
                while (running.get()) {
                    command(redis, "SCRIPT", "FLUSH");
                    flushes.incrementAndGet();
                }
            });
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            AtomicInteger done = new AtomicInteger();
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int id = t;
                workers.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 500; i++) {
                        try {
                            store.decide(call("f" + id)).toCompletableFuture().join();
                            done.incrementAndGet();
                        } catch (Throwable e) {
                            errors.add(e);
                        }
                    }
                }));
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            running.set(false);
            flusher.get(10, TimeUnit.SECONDS);
            assertTrue(errors.isEmpty(), errors.size() + " errors, first: " + errors.peek());
            assertEquals(4000, done.get());
            assertTrue(flushes.get() > 10, "flushes: " + flushes.get());
            System.out.println("4000 calls, " + flushes.get() + " SCRIPT FLUSH meanwhile, 0 errors");
        }
    }

    @Test
    void anOutageIsLoggedOnceWhenItStartsAndOnceWhenItEndsWithoutCredentials() {
        List<LogRecord> records = new ArrayList<>();
        Handler h = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger("io.github.throttle");
        log.addHandler(h);
        try (RedisProcess redis = RedisProcess.start("--requirepass", "s3cret-pw");
             RedisStore store = new RedisStore(RedisURI.create("redis://:s3cret-pw@127.0.0.1:" + redis.port()), Duration.ofMillis(200), 0)) {
            warm(store);
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofMillis(200), false, Duration.ofSeconds(1));
            assertFalse(decider.decide(call("l"), quotas).toCompletableFuture().join().isUnmetered());
            redis.kill();
            for (int i = 0; i < 50; i++) {
                clock.advanceMillis(400);
                assertTrue(decider.decide(call("l"), quotas).toCompletableFuture().join().isUnmetered());
            }
            redis.restart();
            Decision d;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            do {
                clock.advanceMillis(1000);
                d = decider.decide(call("l"), quotas).toCompletableFuture().join();
            } while (d.isUnmetered() && System.nanoTime() < until);
            assertFalse(d.isUnmetered());
            for (int i = 0; i < 10; i++) {
                decider.decide(call("l"), quotas).toCompletableFuture().join();
            }
        } finally {
            log.removeHandler(h);
        }
        List<String> warnings = records.stream().filter(r -> r.getLevel() == Level.WARNING).map(LogRecord::getMessage).toList();
        List<String> infos = records.stream().filter(r -> r.getLevel() == Level.INFO && r.getMessage().contains("answers again"))
                .map(LogRecord::getMessage).toList();
        assertEquals(1, warnings.size(), "warnings: " + warnings);
        assertEquals(1, infos.size(), "recoveries: " + infos);
        assertTrue(records.stream().noneMatch(r -> String.valueOf(r.getMessage()).contains("s3cret-pw")), "a log line shows the password");
        System.out.println("logged: " + warnings.get(0));
    }

    static void command(RedisProcess redis, String... args) {
        try (RedisClient c = RedisClient.create(redis.uri());
             StatefulRedisConnection<String, String> conn = c.connect()) {
            conn.sync().dispatch(io.lettuce.core.protocol.CommandType.valueOf(args[0]), new io.lettuce.core.output.StatusOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                    new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).addValues(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
    }
}
