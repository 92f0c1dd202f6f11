package it.throttle.scenarios;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the body of a throttled asynchronous bean method runs on a servlet runtime over Redis: on the request thread
 * that called it, in its transaction — never on the store's I/O thread, where a body that blocks would hold every
 * other caller's decision. Implemented by the servlet runtimes' suites on Redis (the application's
 * {@code src-it/shared/servlet-app}).
 */
public interface AsyncBodyScenarios extends Client {

    @Test
    default void aTransactionalStageMethodRunsOnItsCallersThreadInItsTransaction() {
        for (int i = 0; i < 5; i++) {
            String answer = me().get("/servlet/async/tx").then().statusCode(200).extract().asString();
            String caller = answer.replaceAll("^caller=(.*) tx=.*$", "$1");
            assertEquals("caller=" + caller + " tx=true on=" + caller, answer, "the body ran on its caller's thread, in its transaction");
        }
    }

    @Test
    default void aBodyThatBlocksDelaysNoOtherCallersDecision() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpClient http = HttpClient.newHttpClient();
        CompletableFuture<HttpResponse<String>> held = http.sendAsync(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port() + "/servlet/async/held?id=" + id)).build(), HttpResponse.BodyHandlers.ofString());
        try {
            me().get("/servlet/async/started?id=" + id).then().statusCode(200).body(equalTo("true"));
            // while that body blocks, another caller's decision comes from Redis (its fields say so), not from the
            // failure policy after the store's timeout
            Response other = as("10.14." + Client.rnd() + "." + Client.rnd()).get("/it/fixed");
            other.then().statusCode(200).header("RateLimit", notNullValue());
        } finally {
            me().post("/servlet/async/release?id=" + id).then().statusCode(204);
        }
        HttpResponse<String> answer = held.get(60, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        String caller = answer.body().replaceAll("^caller=(.*) released on=.*$", "$1");
        assertTrue(answer.body().equals("caller=" + caller + " released on=" + caller), answer.body());
    }
}
