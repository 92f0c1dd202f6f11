package it.throttle.quarkus;

import io.github.throttle.health.ThrottleReadiness;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;

import java.util.Map;

/** {@code throttle.on-store-failure=allow}: see {@link ReadinessAgreement}. */
@QuarkusTest
@TestProfile(ReadinessWhenFailuresAllowTest.Profile.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class ReadinessWhenFailuresAllowTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("throttle.on-store-failure", "allow");
        }
    }

    @Inject
    @Readiness
    ThrottleReadiness readiness;

    @Test
    void onceTheCheckReportsRedisReachableTheNextCallsAreCounted() {
        ReadinessAgreement.acrossAnOutage(readiness, false);
    }
}
