package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import it.throttle.scenarios.ThrottleScenarios;
import org.junit.jupiter.api.Test;

/** The scenarios on Quarkus, counting in a real Redis. */
@QuarkusTest
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class OnRedisTest extends ThrottleScenarios {

    @Override
    protected String baseUri() {
        return "http://127.0.0.1";
    }

    @Override
    protected int port() {
        return RestAssured.port;
    }

    @Test
    void unlimitedAndBlockedCallsMakeNoRedisCall() {
        unlimitedAndBlockedCallsMakeNoStoreCall(RedisResource.redis.port());
    }
}
