package it.throttle.scenarios;

import io.restassured.RestAssured;

/** A client of the Quarkus application under test: in this JVM, on the port Quarkus gave REST Assured. */
public abstract class QuarkusClient extends ScenarioClient {

    @Override
    public int port() {
        return RestAssured.port;
    }
}
