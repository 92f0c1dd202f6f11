package it.throttle.scenarios;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

import java.net.http.HttpClient;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A client of the application under test, as the scenario sets ({@link CoreScenarios}, {@link PlanScenarios},
 * {@link InFlightScenarios}, {@link WaitingScenarios}, ...) send their calls. Every test is a different client (a
 * random address sent through the trusted loopback proxy), so tests never share a quota; {@link ScenarioClient}
 * holds that address for one test.
 */
public interface Client {

    /** The server's address, without its port. */
    String baseUri();

    /** The server's HTTP port. */
    int port();

    /** This test's own client address. */
    String client();

    /** This test's own client for calls started without waiting for their answer. */
    HttpClient http();

    /** A request from {@code address}, as the trusted proxy names it. */
    default RequestSpecification as(String address) {
        return RestAssured.given().baseUri(baseUri()).port(port()).header("X-Forwarded-For", address);
    }

    /** A request from this test's own client. */
    default RequestSpecification me() {
        return as(client());
    }

    /** A random byte of an address, never 0 or 255. */
    static int rnd() {
        return ThreadLocalRandom.current().nextInt(1, 255);
    }
}
