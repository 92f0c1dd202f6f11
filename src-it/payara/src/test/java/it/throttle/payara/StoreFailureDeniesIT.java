package it.throttle.payara;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.StoreFailureScenarios;
import it.throttle.scenarios.StoreOutage;
import io.github.throttle.testing.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/**
 * Payara Micro counting in a real Redis with {@code throttle.on-store-failure=deny}: while Redis is dead,
 * throttled calls are refused and the readiness check {@code throttle} is DOWN; once Redis is back, it is UP
 * and calls are counted again.
 */
class StoreFailureDeniesIT implements StoreFailureScenarios {

    private static RedisProcess redis;
    private static PayaraMicro payara;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        payara = PayaraMicro.startOnRedis("redis-deny", redis, Map.of("THROTTLE_ON_STORE_FAILURE", "deny"));
    }

    @AfterAll
    static void stop() {
        PayaraMicro.stop(payara, redis);
    }

    @Override
    public StoreOutage storeOutage() {
        return new StoreOutage(new Observability(payara.port()), payara.port(), redis, true);
    }
}
