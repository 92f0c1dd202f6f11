package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** {@code throttle.on-store-failure=allow}, the default: see {@link ReadinessAgreement}. */
@QuarkusTest
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ReadinessWhenFailuresAllowTest extends ReadinessAgreement {

    @Override
    boolean denies() {
        return false;
    }
}
