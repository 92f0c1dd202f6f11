package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.testing.AclUser;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.ProbingDecider;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
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
public class RedisAclRefusalTest {

    private static final Limit LIMIT = Limit.fixed(100, 3_600_000);
    /**
     * The stores' timeout: a refusal is answered at once, so a long one costs nothing and keeps a slow connection
     * on a loaded machine from passing for the refusal under test.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
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

    private static Store store(String uri) {
        return RedisStores.open(uri, false, TIMEOUT);
    }

    /** Decides {@code n} calls of fresh identities, each asking Redis; returns the last decision. */
    private Decision decide(ProbingDecider decider, int n) {
        Decision d = null;
        for (int i = 0; i < n; i++) {
            StoreCall call = StoreCall.builder(-1, true).add("throttle:refusal:" + System.nanoTime() + ":" + (++keys), LIMIT, 1, 0).build();
            d = decider.ask(call, LIMITS);
        }
        return d;
    }

    /** The one ERROR of the episode, after {@code calls} calls that all got the failure decision of {@code deny}. */
    private String refused(String uri, boolean deny, int calls) {
        try (LogCapture log = new LogCapture(); Store store = store(uri)) {
            ProbingDecider decider = new ProbingDecider(store, deny);
            for (int i = 0; i < calls; i++) {
                Decision d = decide(decider, 1);
                assertTrue(d.isUnmetered(), "the failure decision");
                assertEquals(!deny, d.allowed(), "on-store-failure=" + (deny ? "deny" : "allow") + " applies");
            }
            String error = log.only(Level.SEVERE);
            assertTrue(log.all().stream().noneMatch(m -> m.contains(AclUser.PASSWORD) || m.contains("wrong-s3cret")), log.all().toString());
            System.out.println("logged: " + error);
            return error;
        }
    }

    @Test
    void withoutPexpireTheScriptIsRefusedCallsAreDeniedAndOneErrorNamesTheCommand() {
        user(AclUser.without(readme, "+pexpire"));
        String error = refused(AclUser.uri(false, redis.port()), true, 20);
        assertTrue(error.contains("NOPERM") && error.contains("it may not run PEXPIRE"), error);
    }

    @Test
    void withoutEvalshaCallsAreLetThroughUncountedAndOneErrorNamesTheCommand() {
        user(AclUser.without(readme, "+evalsha"));
        assertTrue(refused(AclUser.uri(false, redis.port()), false, 20).contains("it may not run EVALSHA"));
    }

    @Test
    void keysOutsideTheUsersPatternAreRefusedAndTheErrorSaysSo() {
        user(readme.replace(" ~throttle:* ", " ~other:* "));
        assertTrue(refused(AclUser.uri(false, redis.port()), true, 5).contains("it may not use Throttle's keys"));
    }

    /**
     * An episode that starts with a failure that passes by itself (nothing listening yet, or a connection dropped
     * on a loaded machine) and goes on with one only an operator can end is logged again, at ERROR, naming it.
     */
    @Test
    void aWrongPasswordMetAfterTheServerWasUnreachableIsStillLoggedAtError() {
        int port = RedisProcess.freePort();
        try (LogCapture log = new LogCapture();
             Store store = store("redis://" + AclUser.NAME + ":wrong-s3cret@127.0.0.1:" + port)) {
            ProbingDecider decider = new ProbingDecider(store, false);
            assertTrue(decide(decider, 1).isUnmetered(), "nothing listens yet");
            assertEquals(1, log.at(Level.WARNING).size(), log.all().toString());
            try (RedisProcess late = RedisProcess.startOn(port);
                 RedisClient client = RedisClient.create();
                 StatefulRedisConnection<String, String> lateAdmin = client.connect(RedisURI.create(late.uri()))) {
                AclUser.run(lateAdmin.sync(), readme);
                for (int i = 0; i < 5; i++) {
                    assertTrue(decide(decider, 1).isUnmetered(), "the password is refused");
                }
                String error = log.only(Level.SEVERE);
                assertTrue(error.contains("Redis refused the user name or password"), error);
                assertTrue(log.all().stream().noneMatch(m -> m.contains("wrong-s3cret")), log.all().toString());
            }
        }
    }

    @Test
    void aWrongPasswordIsLoggedOnceAtErrorWithoutThePassword() {
        user(readme);
        String error = refused("redis://" + AclUser.NAME + ":wrong-s3cret@127.0.0.1:" + redis.port(), false, 5);
        assertTrue(error.contains("Redis refused the user name or password"), error);
    }

    @Test
    void aPermissionRevokedWhileCountingFailsCallsUntilGrantedAgainLoggedOnceEachWay() {
        user(readme);
        try (LogCapture log = new LogCapture(); Store store = store(AclUser.uri(false, redis.port()))) {
            ProbingDecider decider = new ProbingDecider(store, true);
            assertEquals(99, decide(decider, 1).remaining());
            AclUser.run(admin.sync(), "ACL SETUSER " + AclUser.NAME + " -hset");
            for (int i = 0; i < 10; i++) {
                Decision d = decide(decider, 1);
                assertFalse(d.allowed());
                assertTrue(d.isUnmetered());
            }
            AclUser.run(admin.sync(), "ACL SETUSER " + AclUser.NAME + " +hset");
            assertEquals(99, decide(decider, 1).remaining());
            assertTrue(log.only(Level.SEVERE).contains("it may not run HSET"), log.all().toString());
            assertEquals(1, log.all().stream().filter(m -> m.contains("counting resumed")).count(), log.all().toString());
        }
    }
}
