package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
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
@TestProfile(OnTlsAclRedisTest.Profile.class)
@QuarkusTestResource(value = TlsAclRedisResource.class, restrictToAnnotatedClass = true)
class OnTlsAclRedisTest extends QuarkusClient
        implements CoreScenarios, PlanScenarios, InFlightScenarios, WaitingScenarios, UnmappedExceptionScenarios {

    /** Its own profile, so the application restarts with this Redis's settings. */
    public static class Profile implements QuarkusTestProfile {
    }

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
