package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.ProbingDecider;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redis at {@code maxmemory} under a flood of new identities: with {@code volatile-ttl} (the README's advice)
 * Redis evicts and no call fails, an evicted identity only losing its count; with {@code noeviction} the
 * {@code OOM} reply goes through the failure policy and is logged once.
 */
public class RedisMemoryTest {

    private static final long HOUR = 3_600_000;
    /** Sliding by the minute: a key's expiry moves with its last call, so the nearest one is the longest idle. */
    private static final Limit LIMIT = Limit.of(5, HOUR, 60_000);
    private static final List<Limit> LIMITS = List.of(LIMIT);
    private static final int IDENTITIES = 1_000_000;

    /** Identities per call in the flood (a call may carry several, e.g. an address and a user). */
    private static final int PER_CALL = 10;

    private static StoreCall call(String... keys) {
        StoreCall.Builder b = StoreCall.builder(-1, true);
        for (String key : keys) {
            b.add(key, LIMIT, 1, 0);
        }
        return b.build();
    }

    @Test
    void aMillionFreshIdentitiesWithVolatileTtlNeverFailACallAndAnEvictedIdentityOnlyLosesItsCount() throws Exception {
        try (RedisProcess redis = RedisProcess.start("--maxmemory", "8mb", "--maxmemory-policy", "volatile-ttl");
             Store store = RedisStores.open(redis.uri(), false, Duration.ofSeconds(10));
             Admin admin = new Admin(redis)) {
            Decider decider = new Decider(store, InstantSource.system(), false, Duration.ofSeconds(10), FailurePolicy.ALLOW, Duration.ofMillis(250));
            String spent = "throttle:flood:spent";
            for (int i = 0; i < 5; i++) {
                assertTrue(decide(decider, spent).allowed());
            }
            assertFalse(decide(decider, spent).allowed(), "its quota is spent");

            AtomicLong failed = new AtomicLong();
            AtomicLong denied = new AtomicLong();
            int window = 2048;
            Semaphore inFlight = new Semaphore(window);
            long started = System.nanoTime();
            for (int i = 0; i < IDENTITIES; i += PER_CALL) {
                String[] fresh = new String[PER_CALL];
                for (int k = 0; k < PER_CALL; k++) {
                    fresh[k] = "throttle:flood:" + (i + k);
                }
                inFlight.acquire();
                decider.ask(call(fresh), LIMITS).whenComplete((d, e) -> {
                    if (e != null || d.isUnmetered()) {
                        failed.incrementAndGet();
                    } else if (!d.allowed() || d.remaining() != 4) {
                        denied.incrementAndGet();
                    }
                    inFlight.release();
                });
            }
            inFlight.acquire(window);
            long ms = (System.nanoTime() - started) / 1_000_000;

            // Redis evicts before each command while above maxmemory, INFO included: stop it before reading
            admin.commands.configSet("maxmemory", "0");
            long evicted = admin.info("stats", "evicted_keys");
            long expired = admin.info("stats", "expired_keys");
            long peak = admin.info("memory", "used_memory_peak");
            long held = admin.commands.dbsize();
            System.out.printf("volatile-ttl, maxmemory 8 MB: %,d fresh identities in %,d ms, %,d keys held, %,d evicted, %,d expired,"
                    + " peak used_memory %,d bytes; %d failed, %d denied%n", IDENTITIES, ms, held, evicted, expired, peak, failed.get(), denied.get());
            assertEquals(0, failed.get(), "calls that got the failure decision");
            assertEquals(0, denied.get(), "fresh identities are allowed, each with its own count");
            assertEquals(0, expired, "none expires within the hour");
            assertEquals(IDENTITIES + 1, held + evicted, "every key is held or evicted");
            assertTrue(held < IDENTITIES / 10, "Redis held " + held + " keys");
            assertEquals(0, admin.commands.exists(spent), "the longest idle key went first");
            Decision again = decide(decider, spent);
            assertTrue(again.allowed() && !again.isUnmetered(), "an evicted identity is counted afresh, without an error");
            assertEquals(4, again.remaining());
        }
    }

    @Test
    void withNoevictionTheOomReplyGetsTheFailurePolicyAndOneErrorUntilRedisHasRoomAgain() {
        try (RedisProcess redis = RedisProcess.start("--maxmemory", "2mb", "--maxmemory-policy", "noeviction");
             Store store = RedisStores.open(redis.uri(), false, Duration.ofSeconds(5));
             Admin admin = new Admin(redis);
             LogCapture log = new LogCapture()) {
            ProbingDecider decider = new ProbingDecider(store, true);
            int counted = 0;
            Decision d = decider.ask(call("throttle:oom:" + counted), LIMITS);
            while (!d.isUnmetered() && counted < 100_000) {
                int n = counted;
                Decision fresh = d;
                assertTrue(fresh.allowed(), () -> "a fresh identity (" + n + ") is allowed: " + fresh);
                d = decider.ask(call("throttle:oom:" + (++counted)), LIMITS);
            }
            assertTrue(d.isUnmetered() && !d.allowed(), "full after " + counted + " identities: the call is denied (deny)");
            // hold it full: right at maxmemory, memory the server frees by itself between calls can let a write in
            // now and then (seen once on Valkey 8), which would end the episode under test
            admin.commands.configSet("maxmemory", "1mb");
            for (int i = 0; i < 20; i++) {
                // each call asks Redis again and is refused again
                int n = i;
                Decision refused = decider.ask(call("throttle:oom:more-" + i), LIMITS);
                assertTrue(refused.isUnmetered() && !refused.allowed(), () -> "call " + n + " after the first refusal: "
                        + refused + "; " + admin.info("memory", "used_memory") + " bytes used");
            }
            String error = log.only(Level.SEVERE);
            assertTrue(error.contains("OOM") && error.contains("maxmemory"), error);
            System.out.println(counted + " identities filled 2 MB; logged: " + error);

            admin.commands.configSet("maxmemory-policy", "volatile-ttl");
            Decision back = decider.ask(call("throttle:oom:after"), LIMITS);
            assertFalse(back.isUnmetered(), "counting again once Redis may evict");
            assertEquals(4, back.remaining());
            assertEquals(1, log.all().stream().filter(m -> m.contains("counting resumed")).count(), log.all().toString());
        }
    }

    private static Decision decide(Decider decider, String key) {
        return decider.ask(call(key), LIMITS).toCompletableFuture().join();
    }

    /** A plain connection for INFO and CONFIG. */
    private static final class Admin implements AutoCloseable {
        final RedisClient client = RedisClient.create();
        final StatefulRedisConnection<String, String> connection;
        final RedisCommands<String, String> commands;

        Admin(RedisProcess redis) {
            connection = client.connect(RedisURI.create(redis.uri()));
            commands = connection.sync();
        }

        long info(String section, String field) {
            Matcher m = Pattern.compile("^" + field + ":(\\d+)", Pattern.MULTILINE).matcher(commands.info(section));
            assertTrue(m.find(), field);
            return Long.parseLong(m.group(1));
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown();
        }
    }
}
