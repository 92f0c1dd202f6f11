package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@code throttle.on-store-failure=deny}: see {@link ReadinessAgreement}. */
@QuarkusTest
@TestProfile(StoreFailuresDenied.class)
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ReadinessWhenFailuresDenyTest extends ReadinessAgreement {

    @Override
    boolean denies() {
        return true;
    }
}
