package it.throttle.wildfly;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.AsyncBodyScenarios;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.MetricsAndHealthScenarios;
import it.throttle.scenarios.OnRedisAllowing;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/**
 * The scenarios on WildFly counting in a real Redis, configured by the THROTTLE_REDIS_URI environment variable
 * ({@code throttle.on-store-failure} left at {@code allow}): also the counts in Redis, and what readiness,
 * metrics and calls show while Redis is dead.
 */
class OnRedisIT extends WildFlySuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, MetricsAndHealthScenarios, WildFlyScenarios,
        OnRedisAllowing, AsyncBodyScenarios {

    private static RedisProcess redis;
    private static WildFly server;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        server = WildFly.startOnRedis("redis", redis, Map.of());
    }

    @AfterAll
    static void stop() {
        WildFly.stop(server, redis);
    }

    @Override
    public WildFly server() {
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
