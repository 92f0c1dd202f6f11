package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreContract;
import io.github.throttle.testing.AclUser;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole store contract as the README's least-privilege user ({@code redis://throttle:change-me@…}), created
 * with the README's own {@code ACL SETUSER} line; then Redis's {@code ACL LOG} shows that nothing Throttle sent
 * was refused (not even a command whose failure Lettuce ignores).
 */
public class RedisAclUserTest extends StoreContract {

    private static final long SLACK = 120_000;

    private static RedisProcess redis;
    private static RedisClient adminClient;
    private static StatefulRedisConnection<String, String> admin;
    private static RedisStore store;

    @BeforeAll
    static void startRedisWithTheReadmeUser() {
        redis = RedisProcess.start();
        adminClient = RedisClient.create();
        admin = adminClient.connect(RedisURI.create(redis.uri()));
        String command = AclUser.readmeCommand(Path.of("README.md"));
        assertTrue(command.startsWith("ACL SETUSER throttle on >change-me ~throttle:* "), command);
        assertFalse(command.contains("+@all") || command.contains("allkeys") || command.contains("allcommands")
                || command.contains(" ~* "), "least privilege: " + command);
        AclUser.run(admin.sync(), command);
        store = new RedisStore(RedisUris.parse(AclUser.uri(false, redis.port()), false).get(0), Duration.ofSeconds(5), SLACK);
    }

    @AfterAll
    static void nothingWasRefused() {
        try {
            assertEquals(List.of(), admin.sync().aclLog(), "ACL LOG: what the user was refused");
            assertTrue(admin.sync().clientList().lines().anyMatch(l -> l.contains("user=" + AclUser.NAME)), "the store connected as the user");
        } finally {
            store.close();
            admin.close();
            adminClient.shutdown();
            redis.close();
        }
    }

    @Override
    public Store store() {
        return store;
    }

    /** The default key prefix: the only keys the user may touch. */
    @Override
    public String freshKey() {
        return "throttle:" + super.freshKey();
    }

    @Test
    void resetReadinessAndAScriptLoadedAgainWorkAsTheUser() {
        Limit limit = Limit.fixed(3, MINUTE);
        String key = freshKey();
        assertEquals(2, call(SIX_PM, key, limit).remaining());
        RedisCommands<String, String> a = admin.sync();
        a.scriptFlush();
        assertEquals(1, call(SIX_PM + 1, key, limit).remaining(), "NOSCRIPT answered by EVAL");
        store.reset(key).toCompletableFuture().join();
        assertEquals(0, a.exists(key));
        assertEquals(2, call(SIX_PM + 2, key, limit).remaining());
        store.prepare().toCompletableFuture().join();
    }

    /** What assignments and overrides made while running need: write one (a script), read what changed, or every field. */
    @Test
    void sharedSettingsWorkAsTheUser() {
        String key = new io.github.throttle.engine.KeyCodec("throttle").sharedKey("settings");
        assertEquals(io.github.throttle.engine.SharedChanges.none(0), store.sharedChanges(key, 0).toCompletableFuture().join());
        long first = store.writeShared(key, "key:acme", "blocked|").toCompletableFuture().join();
        store.writeShared(key, "key:other", "pro|").toCompletableFuture().join();
        assertEquals(first + 2, store.writeShared(key, "key:other", null).toCompletableFuture().join());
        java.util.Map<String, String> removed = new java.util.HashMap<>();
        removed.put("key:other", null);
        assertEquals(new io.github.throttle.engine.SharedChanges(first + 2, false, removed),
                store.sharedChanges(key, first).toCompletableFuture().join());
        assertEquals(new io.github.throttle.engine.SharedChanges(first + 2, true, java.util.Map.of("key:acme", "blocked|",
                SharedState.VERSION, Long.toString(first + 2))), store.sharedChanges(key, 0).toCompletableFuture().join());
        assertEquals(-1, admin.sync().ttl(key), "kept without expiry");
    }

    /** What the top denied needs: counters added to (HINCRBY), made to expire (PEXPIRE), read (HGETALL). */
    @Test
    void sharedCountsWorkAsTheUser() {
        String key = new io.github.throttle.engine.KeyCodec("throttle").sharedKey("denied", "search") + ":42";
        store.addShared(key, java.util.Map.of("key:acme", 3L, "ip:192.0.2.1", 1L), 70_000).toCompletableFuture().join();
        store.addShared(key, java.util.Map.of("key:acme", 2L), 70_000).toCompletableFuture().join();
        assertEquals(java.util.Map.of("key:acme", "5", "ip:192.0.2.1", "1"), store.readShared(key).toCompletableFuture().join());
        long ttl = admin.sync().pttl(key);
        assertTrue(ttl > 0 && ttl <= 70_000, "expires: " + ttl);
    }
}
