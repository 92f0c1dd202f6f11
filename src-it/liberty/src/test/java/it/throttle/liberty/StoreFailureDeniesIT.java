package it.throttle.liberty;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.StoreFailureScenarios;
import it.throttle.scenarios.StoreOutage;
import io.github.throttle.testing.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

/**
 * Open Liberty with MicroProfile Metrics and Health, counting in a real Redis with
 * {@code throttle.on-store-failure=deny}: while Redis is dead, throttled calls are refused and the readiness
 * check {@code throttle} is DOWN; once Redis is back, it is UP and calls are counted again.
 */
class StoreFailureDeniesIT implements StoreFailureScenarios {

    private static RedisProcess redis;
    private static LibertyServer server;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        server = LibertyServer.start("deny", LibertyServer.port("it.http.port.deny"),
                Map.of("THROTTLE_REDIS_URI", redis.uri(), "THROTTLE_ON_STORE_FAILURE", "deny"), "/liberty/metrics-health.xml");
    }

    @AfterAll
    static void stop() {
        // killing Redis makes Throttle and Lettuce say so
        LibertySuite.stop(server, redis, StoreFailures::expectedWhenDenying);
    }

    @Override
    public StoreOutage storeOutage() {
        return new StoreOutage(new Observability(server.port()), server.port(), redis, true);
    }
}
