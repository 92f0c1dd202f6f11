package io.github.throttle.redis;

import io.github.throttle.engine.SharedChanges;
import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.SharedStateContract;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared state in a standalone Redis: the contract, and the hash as an earlier release reads and writes it during
 * a rolling upgrade.
 */
class RedisSharedStateTest extends SharedStateContract {

    private static RedisProcess redis;
    private static RedisStore store;
    private static RedisClient client;
    private static StatefulRedisConnection<String, String> connection;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        store = new RedisStore(redis.uri(), Duration.ofSeconds(5));
        client = RedisClient.create(redis.uri());
        connection = client.connect();
    }

    @AfterAll
    static void stop() {
        connection.close();
        client.shutdown();
        store.close();
        redis.close();
    }

    @Override
    protected SharedState shared() {
        return store;
    }

    @Test
    void anEarlierReleaseReadsTheSettingsAndTheirVersionAsBefore() {
        RedisCommands<String, String> r = connection.sync();
        String key = freshKey();
        write(key, "key:a", "pro|");
        write(key, "key:b", "blocked|");
        long last = write(key, "key:b", null);
        assertEquals(Long.toString(last), r.hget(key, SharedState.VERSION), "it polls the version field, a whole number");
        Map<String, String> all = r.hgetall(key);
        assertEquals("pro|", all.get("key:a"));
        assertFalse(all.containsKey("key:b"));
        assertTrue(all.keySet().stream().allMatch(f -> f.equals("key:a") || f.startsWith("#")),
                "the other fields it reads are neither identities nor overrides, so it ignores them: " + all.keySet());
    }

    @Test
    void aWriteByAnEarlierReleaseIsReadByEveryReaderBehindIt() {
        RedisCommands<String, String> r = connection.sync();
        String key = freshKey();
        long held = write(key, "key:a", "pro|");
        // as an earlier release writes: the field, then the version, and no note of what changed
        r.hset(key, "key:old", "blocked|");
        r.hincrby(key, SharedState.VERSION, 1);
        write(key, "key:c", "unlimited|");
        SharedChanges changes = since(key, held);
        assertTrue(changes.every(), "the write without a note leaves a gap");
        assertEquals(Map.of("key:a", "pro|", "key:old", "blocked|", "key:c", "unlimited|", SharedState.VERSION, Long.toString(held + 2)),
                changes.fields());
        assertEquals(Map.of("key:c", "unlimited|"), since(key, held + 1).fields(), "after the gap, the notes tell again");
    }
}
