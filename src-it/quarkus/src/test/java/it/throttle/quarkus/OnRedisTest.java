package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import it.throttle.scenarios.QuarkusScenarios;
import org.junit.jupiter.api.Test;

/** The scenarios on Quarkus, counting in a real Redis. */
@QuarkusTest
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class OnRedisTest extends QuarkusScenarios {

    @Test
    void unlimitedAndBlockedCallsMakeNoRedisCall() {
        unlimitedAndBlockedCallsMakeNoStoreCall(RedisResource.redis.port());
    }
}
