package it.throttle.liberty;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.CountsInRedis;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/**
 * The scenarios on Open Liberty, counting in a real redis-server whose address reaches the application
 * through an environment variable ({@code THROTTLE_REDIS_URI}, the MicroProfile Config form of
 * {@code throttle.redis.uri}).
 */
class OnRedisIT extends LibertySuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, LibertyScenarios, CountsInRedis {

    private static RedisProcess redis;
    private static LibertyServer server;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        server = LibertyServer.start("redis", LibertyServer.port("it.http.port.redis"), Map.of("THROTTLE_REDIS_URI", redis.uri()));
    }

    @AfterAll
    static void stop() {
        stop(server, redis, line -> false);
    }

    @Override
    public String expectedStore() {
        return "Redis at " + redis.uri() + "/0";
    }

    @Override
    public LibertyServer server() {
        return server;
    }

    @Override
    public RedisProcess redis() {
        return redis;
    }
}
