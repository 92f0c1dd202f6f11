package it.throttle.payara;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.AsyncBodyScenarios;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.MetricsAndHealthScenarios;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.OnRedisAllowing;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/** The scenarios on Payara Micro counting in a real Redis, configured by the THROTTLE_REDIS_URI environment variable. */
class OnRedisIT extends PayaraSuite
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, MetricsAndHealthScenarios, PayaraScenarios,
        OnRedisAllowing, AsyncBodyScenarios {

    private static RedisProcess redis;
    private static PayaraMicro payara;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        payara = PayaraMicro.startOnRedis("redis", redis, Map.of());
    }

    @AfterAll
    static void stop() {
        PayaraMicro.stop(payara, redis);
    }

    @Override
    public PayaraMicro payara() {
        return payara;
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
