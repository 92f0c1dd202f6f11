package it.throttle.quarkus;

import io.github.throttle.testing.RedisProcess;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.CountsInRedis;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.QuarkusClient;
import it.throttle.scenarios.UnmappedExceptionScenarios;
import it.throttle.scenarios.WaitingScenarios;

/** The scenarios on Quarkus, counting in a real Redis. */
@QuarkusTest
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class OnRedisTest extends QuarkusClient
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, UnmappedExceptionScenarios, CountsInRedis {

    @Override
    public RedisProcess redis() {
        return RedisResource.redis;
    }
}
