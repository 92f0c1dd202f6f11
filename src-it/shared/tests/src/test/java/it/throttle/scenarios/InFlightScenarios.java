package it.throttle.scenarios;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In-flight limits over HTTP ({@code it.throttle.app.InFlightResource}): a call holds its seat while it works,
 * and while its body streams, and gives it back when its response is written, whether it succeeded or failed.
 * Each call is named by an id; the test starts it, waits until the server says it works, and finishes it.
 */
public abstract class InFlightScenarios extends ClientScenarios {

    private static final String POLICY = "\"10m\";q=100;w=600, \"in-flight-10m\";q=2;w=600;qu=\"concurrent-requests\"";

    private final HttpClient http = HttpClient.newHttpClient();

    /** Starts a call of this test's client without waiting for its answer. */
    private CompletableFuture<HttpResponse<String>> start(String path) {
        HttpRequest get = HttpRequest.newBuilder(URI.create(baseUri() + ":" + port() + path))
                .header("X-Forwarded-For", client).build();
        return http.sendAsync(get, HttpResponse.BodyHandlers.ofString());
    }

    /** A call id of this test's own. */
    private String id(String name) {
        return client + "-" + name;
    }

    private void started(String id) {
        me().get("/it/in-flight/started?id=" + id).then().statusCode(200);
    }

    private void finish(String id) {
        me().post("/it/in-flight/finish?id=" + id).then().statusCode(200);
    }

    /** Retry-After: when the lease (10 minutes) of a call that started a moment ago ends. */
    private static void untilTheSoonestLeaseEnds(String retryAfter) {
        int seconds = Integer.parseInt(retryAfter);
        assertTrue(seconds > 540 && seconds <= 600, "Retry-After " + retryAfter);
    }

    @Test
    public void twoCallsWorkAtOnceAndAThirdGets429UntilOneEnds() throws Exception {
        String a = id("a");
        String b = id("b");
        CompletableFuture<HttpResponse<String>> first = start("/it/in-flight/work?id=" + a);
        CompletableFuture<HttpResponse<String>> second = start("/it/in-flight/work?id=" + b);
        started(a);
        started(b);
        untilTheSoonestLeaseEnds(me().get("/it/in-flight/work?id=" + id("c")).then().statusCode(429)
                .header("RateLimit-Policy", equalTo(POLICY))
                .header("RateLimit", containsString("\"in-flight-10m\";r=0;t="))
                .body(containsString("\"violated-policies\":[\"in-flight-10m\"]"))
                .extract().header("Retry-After"));

        finish(a);
        HttpResponse<String> done = first.get(60, TimeUnit.SECONDS);
        assertEquals(200, done.statusCode());
        assertEquals("worked " + a, done.body());
        assertEquals(POLICY, done.headers().firstValue("RateLimit-Policy").orElseThrow());
        String d = id("d");
        CompletableFuture<HttpResponse<String>> fourth = start("/it/in-flight/work?id=" + d);
        started(d);
        me().get("/it/in-flight/work?id=" + id("e")).then().statusCode(429);

        finish(b);
        finish(d);
        assertEquals(200, second.get(60, TimeUnit.SECONDS).statusCode());
        assertEquals(200, fourth.get(60, TimeUnit.SECONDS).statusCode());
        // every seat is back: two calls work at once again
        String f = id("f");
        String g = id("g");
        CompletableFuture<HttpResponse<String>> sixth = start("/it/in-flight/work?id=" + f);
        CompletableFuture<HttpResponse<String>> seventh = start("/it/in-flight/work?id=" + g);
        started(f);
        started(g);
        finish(f);
        finish(g);
        assertEquals(200, sixth.get(60, TimeUnit.SECONDS).statusCode());
        assertEquals(200, seventh.get(60, TimeUnit.SECONDS).statusCode());
    }

    @Test
    public void aStreamedBodyHoldsItsSeatUntilItsLastByteIsWritten() throws Exception {
        String s1 = id("s1");
        CompletableFuture<HttpResponse<String>> streaming = start("/it/in-flight/stream?id=" + s1);
        started(s1);
        untilTheSoonestLeaseEnds(me().get("/it/in-flight/stream?id=" + id("s2")).then().statusCode(429)
                .extract().header("Retry-After"));
        finish(s1);
        HttpResponse<String> whole = streaming.get(60, TimeUnit.SECONDS);
        assertEquals(200, whole.statusCode());
        assertEquals("first part\nlast part\n", whole.body());
        String s3 = id("s3");
        CompletableFuture<HttpResponse<String>> next = start("/it/in-flight/stream?id=" + s3);
        started(s3);
        finish(s3);
        assertEquals(200, next.get(60, TimeUnit.SECONDS).statusCode());
    }

    @Test
    public void aCallAnsweredByAStageHoldsItsSeatUntilTheStageCompletes() throws Exception {
        String l1 = id("l1");
        CompletableFuture<HttpResponse<String>> pending = start("/it/in-flight/later?id=" + l1);
        started(l1);
        untilTheSoonestLeaseEnds(me().get("/it/in-flight/later?id=" + id("l2")).then().statusCode(429)
                .extract().header("Retry-After"));
        finish(l1);
        HttpResponse<String> answered = pending.get(60, TimeUnit.SECONDS);
        assertEquals(200, answered.statusCode());
        assertEquals("worked later " + l1, answered.body());
        String l3 = id("l3");
        CompletableFuture<HttpResponse<String>> next = start("/it/in-flight/later?id=" + l3);
        started(l3);
        finish(l3);
        assertEquals(200, next.get(60, TimeUnit.SECONDS).statusCode());
    }

    @Test
    public void aCallWhoseExceptionAMapperAnswersGivesItsSeatBack() {
        for (int i = 0; i < 3; i++) {
            me().get("/it/in-flight/refuse").then().statusCode(409).body(equalTo("not today"));
        }
    }
}
