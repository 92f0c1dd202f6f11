package it.throttle.liberty;

import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The scenarios on Open Liberty, counting in a real redis-server whose address reaches the application
 * through an environment variable ({@code THROTTLE_REDIS_URI}, the MicroProfile Config form of
 * {@code throttle.redis.uri}).
 */
class OnRedisIT extends LibertySuite {

    private static RedisProcess redis;
    private static LibertyServer server;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        server = LibertyServer.start("redis", LibertyServer.port("it.http.port.redis"), Map.of("THROTTLE_REDIS_URI", redis.uri()));
    }

    @AfterAll
    static void stop() {
        try {
            stop(server);
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Override
    protected String expectedStore() {
        return "Redis at " + redis.uri() + "/0";
    }

    @Test
    public void unlimitedAndBlockedCallsMakeNoRedisCall() {
        unlimitedAndBlockedCallsMakeNoStoreCall(redis.port());
    }

    @Test
    public void theCountsAreInRedis() {
        me().get("/it/fixed").then().statusCode(200);
        try (RedisClient client = RedisClient.create(redis.uri()); StatefulRedisConnection<String, String> c = client.connect()) {
            List<String> keys = c.sync().keys("throttle*");
            assertFalse(keys.isEmpty(), "no throttle keys in Redis");
        }
    }

    @Override
    protected LibertyServer server() {
        return server;
    }
}
