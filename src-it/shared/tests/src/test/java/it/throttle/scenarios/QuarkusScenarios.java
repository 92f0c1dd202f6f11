package it.throttle.scenarios;

import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

/** The scenarios, sent to the Quarkus application under test (in this JVM, on the port Quarkus gave REST Assured). */
public abstract class QuarkusScenarios extends ThrottleScenarios {

    /**
     * Quarkus REST answers an exception no mapper handles with a 500 without running the response filters: the
     * seat comes back through the interceptor. (On the servlet runtimes the same path runs, but the server logs
     * each such exception as an error, which their suites refuse.)
     */
    @Test
    public void anInFlightCallThatThrowsAnUnmappedExceptionGivesItsSeatBack() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            answeredOnceASeatIsFree("/it/in-flight/fail", 500);
        }
    }

    @Override
    protected String baseUri() {
        return "http://127.0.0.1";
    }

    @Override
    protected int port() {
        return RestAssured.port;
    }
}
