package it.throttle.servlet;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.AsyncBodyScenarios;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.MetricsAndHealthScenarios;
import it.throttle.scenarios.OnRedisAllowing;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.ServerProcess;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/**
 * The scenarios counting in a real Redis, configured by the THROTTLE_REDIS_URI environment variable
 * ({@code throttle.on-store-failure} left at {@code allow}): also the counts in Redis, what readiness, metrics
 * and calls show while Redis is dead, and where an async bean method's body runs.
 */
class OnRedisIT extends ServletSuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, MetricsAndHealthScenarios, ServletScenarios,
        OnRedisAllowing, AsyncBodyScenarios {

    private static RedisProcess redis;
    private static ServerProcess server;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        server = RUNTIME.start("redis", Map.of("THROTTLE_REDIS_URI", redis.uri()), Map.of());
    }

    @AfterAll
    static void stop() {
        stop(server, redis);
    }

    @Override
    public ServerProcess server() {
        return server;
    }

    @Override
    public String storeKind() {
        return "redis";
    }

    @Override
    public String expectedStore() {
        return "Redis at " + redis.uri() + "/0";
    }

    @Override
    public RedisProcess redis() {
        return redis;
    }
}
