package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import it.throttle.scenarios.CoreScenarios;
import it.throttle.scenarios.InFlightScenarios;
import it.throttle.scenarios.PlanScenarios;
import it.throttle.scenarios.QuarkusClient;
import it.throttle.scenarios.UnmappedExceptionScenarios;
import it.throttle.scenarios.WaitingScenarios;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scenarios on Quarkus, counting in Redis over TLS as the README's least-privilege user. */
@QuarkusTest
@WithTestResource(value = TlsAclRedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class OnTlsAclRedisTest extends QuarkusClient
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, UnmappedExceptionScenarios {

    @Test
    void theApplicationCountsOverTlsAsTheAclUserAndIsRefusedNothing() {
        me().get("/it/fixed").then().statusCode(200).header("RateLimit", notNullValue());
        try (TlsAclRedisResource.Admin admin = new TlsAclRedisResource.Admin()) {
            String clients = admin.connection.sync().clientList();
            assertTrue(clients.lines().anyMatch(l -> l.contains("user=throttle")
                    && l.contains("laddr=127.0.0.1:" + TlsAclRedisResource.redis.tlsPort())), clients);
            assertEquals(List.of(), admin.connection.sync().aclLog(), "what the user was refused");
        }
    }
}
