package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreContract;
import io.github.throttle.testing.RedisSentinelProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The whole store contract through a {@code redis-sentinel://} URI: the store asks the sentinel for the primary and
 * counts there. One primary, replica and sentinel for the class (a failover is {@link RedisSentinelStoreTest}'s).
 */
public class RedisSentinelContractTest extends StoreContract {

    private static final long SLACK = 120_000;

    private static RedisSentinelProcess redis;
    private static RedisStore store;

    @BeforeAll
    static void startSentinel() {
        redis = RedisSentinelProcess.start();
        // the tests' clock is not Redis's: keys live SLACK longer, so that a slow machine never sees a millisecond
        // window's key expire (in real time) between two calls of one scenario
        store = new RedisStore(RedisUris.parse(redis.uri(), false).get(0), Duration.ofSeconds(5), SLACK);
        store.prepare();
    }

    @AfterAll
    static void stopSentinel() {
        try {
            if (store != null) {
                store.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Override
    public Store store() {
        return store;
    }

    @Test
    void theCountsAreOnThePrimaryTheSentinelNames() {
        assertEquals("redis-sentinel", store.kind());
        String key = freshKey();
        call(SIX_PM, key, Limit.fixed(1, SECOND));
        assertEquals(redis.primary().port(), redis.primaryPort());
        RedisClient client = RedisClient.create();
        try (StatefulRedisConnection<String, String> primary = client.connect(RedisURI.create(redis.primary().uri()))) {
            assertEquals(1L, primary.sync().exists(key));
        } finally {
            client.shutdown();
        }
    }
}
