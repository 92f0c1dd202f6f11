package it.throttle.scenarios;

import java.net.http.HttpClient;

import static it.throttle.scenarios.Client.rnd;

/**
 * The state of one test's {@link Client}: its random address and its HTTP client, made anew for each test. The
 * scenarios are in the sets a suite implements; a runtime's suite adds only where its server listens.
 */
public abstract class ScenarioClient implements Client {

    private final String client = "10." + rnd() + "." + rnd() + "." + rnd();
    private final HttpClient http = HttpClient.newHttpClient();

    @Override
    public String baseUri() {
        return "http://127.0.0.1";
    }

    @Override
    public String client() {
        return client;
    }

    @Override
    public HttpClient http() {
        return http;
    }
}
