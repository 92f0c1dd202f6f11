package it.throttle.scenarios;

import org.junit.jupiter.api.Test;

/**
 * An in-flight call that throws an exception no mapper handles. Quarkus REST answers it with a 500 without
 * running the response filters: the seat comes back when Quarkus REST completes the request. (On the servlet runtimes the same
 * path runs, but the server logs each such exception as an error, which their suites refuse: only the Quarkus
 * suites implement this set.)
 */
public interface UnmappedExceptionScenarios extends Client {

    @Test
    default void anInFlightCallThatThrowsAnUnmappedExceptionGivesItsSeatBack() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            InFlightScenarios.answeredOnceASeatIsFree(this, "/it/in-flight/fail", 500);
        }
    }

    /** The same for a limit declared on the interface the resource class implements: no interceptor reaches it. */
    @Test
    default void anInheritedInFlightCallThatThrowsAnUnmappedExceptionGivesItsSeatBack() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            InFlightScenarios.answeredOnceASeatIsFree(this, "/it/iface/fail", 500);
        }
    }
}
