package it.throttle.scenarios;

import io.restassured.RestAssured;

/** The scenarios, sent to the Quarkus application under test (in this JVM, on the port Quarkus gave REST Assured). */
public abstract class QuarkusScenarios extends ThrottleScenarios {

    @Override
    protected String baseUri() {
        return "http://127.0.0.1";
    }

    @Override
    protected int port() {
        return RestAssured.port;
    }
}
