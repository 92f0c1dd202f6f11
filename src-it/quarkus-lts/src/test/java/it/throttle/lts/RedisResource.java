package it.throttle.lts;

import io.github.throttle.testing.RedisProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** A real redis-server for the application under test, which a test may kill and restart. */
public class RedisResource implements QuarkusTestResourceLifecycleManager {

    /** The server of the application under test, for its tests. */
    static volatile RedisProcess redis;

    /** The server this instance started: it stops that one, whichever {@link #redis} names by then. */
    private RedisProcess started;

    @Override
    public Map<String, String> start() {
        started = RedisProcess.start();
        redis = started;
        return Map.of("throttle.redis.uri", started.uri());
    }

    @Override
    public void stop() {
        if (started != null) {
            started.close();
        }
    }
}
