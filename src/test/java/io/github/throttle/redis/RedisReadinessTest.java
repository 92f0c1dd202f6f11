package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.testing.AclUser;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the readiness check asks a real Redis, and what its answer means for calls: reachable means the store can
 * decide (the script runs and records, on a key no caller uses), and a reachable answer ends a failure episode
 * at once. The decider's
 * open period is an hour of a clock that never moves, so only the check can end an episode here.
 */
public class RedisReadinessTest {

    private static final Limit LIMIT = Limit.fixed(2, 3_600_000);
    private static final List<Limit> LIMITS = List.of(LIMIT);
    /** Only a real fault makes a wait this long: a reconnect takes a second or two even on a loaded machine. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    /**
     * Long enough that a loaded machine's slow answer (the first call connects and loads the script) is not taken
     * for a failure; the failures here (a dead server, a refused command, an out-of-memory reply) are answered at once.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static Decider decider(Store store, boolean deny) {
        return new Decider(store, new MutableClock(0), false, TIMEOUT, deny ? FailurePolicy.DENY : FailurePolicy.ALLOW, Duration.ofHours(1));
    }

    /** As the limiter's check: one recorded on a key of its own, which expires a second later. */
    private static StoreCall probe() {
        return StoreCall.builder(-1, true).add("throttle:throttle-readiness:probe", Limit.fixed(1_000_000, 1000), 1, 0).build();
    }

    private static StoreCall call(String key) {
        return StoreCall.builder(-1, true).add(key, LIMIT, 1, 0).build();
    }

    private static boolean reachable(Decider d) {
        return d.reachable(probe()).toCompletableFuture().join();
    }

    private static Decision decide(Decider d, String key) {
        return d.ask(call(key), LIMITS).toCompletableFuture().join();
    }

    @Test
    void onceTheCheckReachesARestartedRedisTheNextCallsAreCountedUnderEitherPolicy() {
        for (boolean deny : new boolean[] {true, false}) {
            try (RedisProcess redis = RedisProcess.start(); Store store = RedisStores.open(redis.uri(), false, TIMEOUT)) {
                Decider d = decider(store, deny);
                assertTrue(reachable(d));
                assertEquals(1, decide(d, "throttle:r:before").remaining());

                redis.kill();
                Decision failed = decide(d, "throttle:r:during");
                assertTrue(failed.isUnmetered(), "the failure decision");
                assertEquals(!deny, failed.allowed());
                assertFalse(reachable(d), "the check says Redis does not answer");

                redis.restart();
                long deadline = System.nanoTime() + DEADLINE_NANOS;
                while (!reachable(d)) {
                    assertTrue(System.nanoTime() < deadline, "Redis not reachable 30 s after its restart");
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
                String key = "throttle:r:after:" + deny;
                Decision first = decide(d, key);
                assertFalse(first.isUnmetered(), "decided by Redis, deny=" + deny);
                assertEquals(1, first.remaining());
                assertTrue(decide(d, key).allowed());
                assertFalse(decide(d, key).allowed(), "the limit of 2 holds");
            }
        }
    }

    @Test
    void theScriptIsLoadedAsSoonAsTheStoreIsOpened() {
        try (RedisProcess redis = RedisProcess.start();
             RedisClient admin = RedisClient.create();
             StatefulRedisConnection<String, String> c = admin.connect(RedisURI.create(redis.uri()))) {
            assertEquals(List.of(false), c.sync().scriptExists(SlidingWindowScript.SHA1));
            try (Store store = RedisStores.open(redis.uri(), false, TIMEOUT)) {
                store.prepare().toCompletableFuture().join();
                assertEquals(List.of(true), c.sync().scriptExists(SlidingWindowScript.SHA1), "no NOSCRIPT for the first call");
                assertEquals(0, c.sync().dbsize(), "loading charges nothing");
            }
        }
    }

    @Test
    void aUserWhoMayNotRunTheScriptIsNotReachable() {
        String readme = AclUser.readmeCommand(Path.of("README.md"));
        try (RedisProcess redis = RedisProcess.start();
             RedisClient admin = RedisClient.create();
             StatefulRedisConnection<String, String> c = admin.connect(RedisURI.create(redis.uri()))) {
            AclUser.run(c.sync(), readme);
            try (Store store = RedisStores.open(AclUser.uri(false, redis.port()), false, TIMEOUT)) {
                assertTrue(reachable(decider(store, true)), "the README's user");
            }
            c.sync().aclDeluser(AclUser.NAME);
            AclUser.run(c.sync(), AclUser.without(readme, "+evalsha"));
            try (Store store = RedisStores.open(AclUser.uri(false, redis.port()), false, TIMEOUT)) {
                assertFalse(reachable(decider(store, true)), "PING would answer; the script does not run");
            }
            assertEquals(List.of(), c.sync().keys("throttle:r*"), "the check charges no caller");
        }
    }

    @Test
    void anOutOfMemoryRedisIsNotReachable() {
        try (RedisProcess redis = RedisProcess.start("--maxmemory-policy", "noeviction");
             RedisClient admin = RedisClient.create();
             StatefulRedisConnection<String, String> c = admin.connect(RedisURI.create(redis.uri()));
             Store store = RedisStores.open(redis.uri(), false, TIMEOUT)) {
            Decider d = decider(store, true);
            assertTrue(reachable(d));
            String filler = "x".repeat(1000);
            for (int i = 0; i < 4_000; i++) {
                c.sync().set("filler:" + i, filler);
            }
            // 4 MB held, 1 MB allowed, nothing to evict: far over, whatever else Redis frees meanwhile
            c.sync().configSet("maxmemory", "1mb");
            assertFalse(reachable(d), "a script that only reads would still run");
            c.sync().configSet("maxmemory", "0");
            assertTrue(reachable(d));
        }
    }

    @Test
    void aStoreOpenedWhileRedisIsDownAppliesTheFailurePolicyUntilTheCheckReachesRedis() {
        int port = RedisProcess.freePort();
        try (Store store = RedisStores.open("redis://127.0.0.1:" + port, false, TIMEOUT)) {
            Decider d = decider(store, true);
            Decision refused = decide(d, "throttle:r:early");
            assertTrue(refused.isUnmetered(), "the failure decision");
            assertFalse(refused.allowed(), "deny applies");
            assertFalse(reachable(d));
            try (RedisProcess redis = RedisProcess.startOn(port)) {
                long deadline = System.nanoTime() + DEADLINE_NANOS;
                while (!reachable(d)) {
                    assertTrue(System.nanoTime() < deadline, "Redis not reachable 30 s after it started");
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
                Decision counted = decide(d, "throttle:r:late");
                assertFalse(counted.isUnmetered(), "decided by Redis");
                assertEquals(1, counted.remaining());
            }
        }
    }
}
