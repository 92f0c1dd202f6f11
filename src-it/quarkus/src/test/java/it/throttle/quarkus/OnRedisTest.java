package it.throttle.quarkus;

import it.throttle.scenarios.CountsInRedis;
import io.github.throttle.testing.RedisProcess;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import it.throttle.scenarios.QuarkusScenarios;

/** The scenarios on Quarkus, counting in a real Redis. */
@QuarkusTest
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class OnRedisTest extends QuarkusScenarios implements CountsInRedis {

    @Override
    public RedisProcess redis() {
        return RedisResource.redis;
    }
}
