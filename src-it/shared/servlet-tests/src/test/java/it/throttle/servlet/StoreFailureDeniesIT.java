package it.throttle.servlet;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.ServerProcess;
import it.throttle.scenarios.StoreFailureScenarios;
import it.throttle.scenarios.StoreOutage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/**
 * Counting in a real Redis with {@code throttle.on-store-failure=deny}: while Redis is dead, throttled calls are
 * refused and the readiness check {@code throttle} is DOWN; once Redis is back, it is UP and calls are counted
 * again.
 */
class StoreFailureDeniesIT implements StoreFailureScenarios {

    private static RedisProcess redis;
    private static ServerProcess server;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        server = ServletSuite.RUNTIME.start("redis-deny",
                Map.of("THROTTLE_REDIS_URI", redis.uri(), "THROTTLE_ON_STORE_FAILURE", "deny"), Map.of());
    }

    @AfterAll
    static void stop() {
        ServletSuite.stop(server, redis);
    }

    @Override
    public StoreOutage storeOutage() {
        return new StoreOutage(ServletSuite.RUNTIME.observed(server), server.port(), redis, true);
    }
}
