package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.testing.AclUser;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Redis user missing one permission of the README's line: every call gets the failure policy (never a silent
 * fail-open), and the episode is logged once, at ERROR, naming the command or the keys refused. Also a
 * permission revoked while counting, and a wrong password.
 */
class RedisAclRefusalTest {

    private static final Limit LIMIT = Limit.fixed(100, 3_600_000);
    private static final List<Limit> LIMITS = List.of(LIMIT);

    private static RedisProcess redis;
    private static RedisClient adminClient;
    private static StatefulRedisConnection<String, String> admin;
    private static String readme;
    private int keys;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        adminClient = RedisClient.create();
        admin = adminClient.connect(RedisURI.create(redis.uri()));
        readme = AclUser.readmeCommand(Path.of("README.md"));
    }

    @AfterAll
    static void stop() {
        admin.close();
        adminClient.shutdown();
        redis.close();
    }

    /** Creates the user afresh with {@code command}. */
    private static void user(String command) {
        admin.sync().aclDeluser(AclUser.NAME);
        AclUser.run(admin.sync(), command);
    }

    private StoreCall call() {
        return StoreCall.builder(-1, true).add("throttle:refusal:" + System.nanoTime() + ":" + (++keys), LIMIT, 1, 0).build();
    }

    /** Decides {@code n} calls, each past the open period, so each asks Redis; returns the last decision. */
    private Decision decide(Decider decider, MutableClock clock, int n) {
        Decision d = null;
        for (int i = 0; i < n; i++) {
            clock.advanceMillis(400);
            d = decider.decide(call(), LIMITS).toCompletableFuture().join();
        }
        return d;
    }

    @Test
    void withoutPexpireTheScriptIsRefusedCallsAreDeniedAndOneErrorNamesTheCommand() {
        user(AclUser.without(readme, "+pexpire"));
        try (LogCapture log = new LogCapture();
             Store store = RedisStores.open(AclUser.uri(false, redis.port()), false, Duration.ofSeconds(2))) {
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofSeconds(2), true, Duration.ofMillis(250));
            for (int i = 0; i < 20; i++) {
                Decision d = decide(decider, clock, 1);
                assertFalse(d.allowed(), "on-store-failure=deny applies");
                assertTrue(d.isUnmetered());
            }
            List<String> errors = log.at(Level.SEVERE);
            assertEquals(1, errors.size(), "once per episode: " + log.all());
            assertTrue(errors.get(0).contains("NOPERM") && errors.get(0).contains("it may not run PEXPIRE"), errors.get(0));
            assertFalse(errors.get(0).contains(AclUser.PASSWORD));
            System.out.println("logged: " + errors.get(0));
        }
    }

    @Test
    void withoutEvalshaCallsAreLetThroughUncountedAndOneErrorNamesTheCommand() {
        user(AclUser.without(readme, "+evalsha"));
        try (LogCapture log = new LogCapture();
             Store store = RedisStores.open(AclUser.uri(false, redis.port()), false, Duration.ofSeconds(2))) {
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofSeconds(2), false, Duration.ofMillis(250));
            Decision d = decide(decider, clock, 20);
            assertTrue(d.allowed() && d.isUnmetered(), "on-store-failure=allow applies");
            List<String> errors = log.at(Level.SEVERE);
            assertEquals(1, errors.size(), "once per episode: " + log.all());
            assertTrue(errors.get(0).contains("it may not run EVALSHA"), errors.get(0));
            System.out.println("logged: " + errors.get(0));
        }
    }

    @Test
    void keysOutsideTheUsersPatternAreRefusedAndTheErrorSaysSo() {
        user(readme.replace(" ~throttle:* ", " ~other:* "));
        try (LogCapture log = new LogCapture();
             Store store = RedisStores.open(AclUser.uri(false, redis.port()), false, Duration.ofSeconds(2))) {
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofSeconds(2), true, Duration.ofMillis(250));
            assertFalse(decide(decider, clock, 5).allowed());
            List<String> errors = log.at(Level.SEVERE);
            assertEquals(1, errors.size(), log.all().toString());
            assertTrue(errors.get(0).contains("it may not use Throttle's keys"), errors.get(0));
            System.out.println("logged: " + errors.get(0));
        }
    }

    @Test
    void aWrongPasswordIsLoggedOnceAtErrorWithoutThePassword() {
        user(readme);
        try (LogCapture log = new LogCapture();
             Store store = RedisStores.open("redis://" + AclUser.NAME + ":wrong-s3cret@127.0.0.1:" + redis.port(), false,
                     Duration.ofSeconds(2))) {
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofSeconds(2), false, Duration.ofMillis(250));
            Decision d = decide(decider, clock, 5);
            assertTrue(d.allowed() && d.isUnmetered());
            List<String> errors = log.at(Level.SEVERE);
            assertEquals(1, errors.size(), log.all().toString());
            assertTrue(errors.get(0).contains("Redis refused the user name or password"), errors.get(0));
            assertTrue(log.all().stream().noneMatch(m -> m.contains("wrong-s3cret")), log.all().toString());
            System.out.println("logged: " + errors.get(0));
        }
    }

    @Test
    void aPermissionRevokedWhileCountingFailsCallsUntilGrantedAgainLoggedOnceEachWay() {
        user(readme);
        try (LogCapture log = new LogCapture();
             Store store = RedisStores.open(AclUser.uri(false, redis.port()), false, Duration.ofSeconds(2))) {
            MutableClock clock = new MutableClock(0);
            Decider decider = new Decider(store, clock, false, Duration.ofSeconds(2), true, Duration.ofMillis(250));
            assertEquals(99, decide(decider, clock, 1).remaining());
            RedisCommands<String, String> a = admin.sync();
            AclUser.run(a, "ACL SETUSER " + AclUser.NAME + " -hset");
            for (int i = 0; i < 10; i++) {
                Decision d = decide(decider, clock, 1);
                assertFalse(d.allowed());
                assertTrue(d.isUnmetered());
            }
            AclUser.run(a, "ACL SETUSER " + AclUser.NAME + " +hset");
            assertEquals(99, decide(decider, clock, 1).remaining());
            List<String> errors = log.at(Level.SEVERE);
            assertEquals(1, errors.size(), log.all().toString());
            assertTrue(errors.get(0).contains("it may not run HSET"), errors.get(0));
            assertEquals(1, log.all().stream().filter(m -> m.contains("counting resumed")).count(), log.all().toString());
        }
    }
}
