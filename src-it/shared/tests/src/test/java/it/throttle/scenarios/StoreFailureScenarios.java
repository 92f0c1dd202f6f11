package it.throttle.scenarios;

import org.junit.jupiter.api.Test;

/**
 * A server counting in a real Redis that the test kills and starts again (see {@link StoreOutage}): implemented
 * by each runtime's suite on Redis, under {@code allow} or {@code deny}.
 */
public interface StoreFailureScenarios {

    /** The application under test, its Redis and its failure policy. */
    StoreOutage storeOutage();

    @Test
    default void readinessAndCallsAgreeAcrossARedisOutage() {
        storeOutage().readinessAndCallsAgreeAcrossAnOutage();
    }

    @Test
    default void callsDecidedByTheFailurePolicyAreCountedAsSuch() {
        storeOutage().failurePolicyCallsAreCountedAsSuch();
    }
}
