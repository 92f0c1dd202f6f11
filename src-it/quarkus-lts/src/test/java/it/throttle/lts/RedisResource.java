package it.throttle.lts;

import io.github.throttle.testing.RedisProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** A real redis-server for the application under test, which a test may kill and restart. */
public class RedisResource implements QuarkusTestResourceLifecycleManager {

    static volatile RedisProcess redis;

    @Override
    public Map<String, String> start() {
        redis = RedisProcess.start();
        return Map.of("throttle.redis.uri", redis.uri());
    }

    @Override
    public void stop() {
        if (redis != null) {
            redis.close();
        }
    }
}
