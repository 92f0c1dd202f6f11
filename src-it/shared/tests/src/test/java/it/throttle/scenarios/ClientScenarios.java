package it.throttle.scenarios;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Scenarios as any HTTP client sees them. Each runtime's suite points REST Assured at its server
 * ({@link #baseUri()}, {@link #port()}). Every test is a different client (a random address sent through the
 * trusted loopback proxy), so tests never share a quota.
 */
public abstract class ClientScenarios {

    protected abstract String baseUri();

    protected abstract int port();

    /** This test's own client address. */
    protected final String client = "10." + rnd() + "." + rnd() + "." + rnd();

    protected static int rnd() {
        return ThreadLocalRandom.current().nextInt(1, 255);
    }

    /** A request from {@code address}, as the trusted proxy names it. */
    public RequestSpecification as(String address) {
        return RestAssured.given().baseUri(baseUri()).port(port()).header("X-Forwarded-For", address);
    }

    /** A request from this test's own client. */
    public RequestSpecification me() {
        return as(client);
    }
}
