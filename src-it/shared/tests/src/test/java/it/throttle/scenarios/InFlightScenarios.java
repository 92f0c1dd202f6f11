package it.throttle.scenarios;

import org.junit.jupiter.api.Test;

import java.net.URI;
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
 * Implemented by each runtime's suite.
 */
public interface InFlightScenarios extends Client {

    String POLICY = "\"10m\";q=100;w=600, \"in-flight-10m\";q=2;w=600;qu=\"concurrent-requests\"";

    /** Starts a call of this test's client without waiting for its answer. */
    private CompletableFuture<HttpResponse<String>> start(String path) {
        HttpRequest get = HttpRequest.newBuilder(URI.create(baseUri() + ":" + port() + path))
                .header("X-Forwarded-For", client()).build();
        return http().sendAsync(get, HttpResponse.BodyHandlers.ofString());
    }

    /** A call id of this test's own. */
    private String id(String name) {
        return client() + "-" + name;
    }

    private void started(String id) {
        me().get("/it/in-flight/started?id=" + id).then().statusCode(200);
    }

    private void finish(String id) {
        me().post("/it/in-flight/finish?id=" + id).then().statusCode(200);
    }

    /** A call let in, working until finished: its id and its answer to come. */
    record Held(String id, CompletableFuture<HttpResponse<String>> answer) {
    }

    /**
     * Starts a call on {@code path} that holds its seat until finished, once a seat is free. A seat given back at
     * the end of a call comes back just after its caller has read the answer (the store is told once the
     * answer is written), so a call sent at once may still be refused: refused calls are sent again, each under
     * an id of its own, until one is let in (at most 30 s: only a seat never given back takes that long).
     */
    private Held startOnceASeatIsFree(String path, String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int n = 0; ; n++) {
            String id = id(name + "-" + n);
            CompletableFuture<HttpResponse<String>> call = start(path + "?id=" + id);
            while (true) {
                assertTrue(System.nanoTime() < deadline, "no seat came back within 30 s for " + path);
                if (call.isDone()) {
                    assertEquals(429, call.get().statusCode(), "a call that is not let in is refused");
                    break;
                }
                if (me().get("/it/in-flight/has-started?id=" + id).then().statusCode(200).extract().asString().equals("true")) {
                    return new Held(id, call);
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
        }
    }

    /** Retry-After: when the lease (10 minutes) of a call that started a moment ago ends. */
    private static void untilTheSoonestLeaseEnds(String retryAfter) {
        int seconds = Integer.parseInt(retryAfter);
        assertTrue(seconds > 540 && seconds <= 600, "Retry-After " + retryAfter);
    }

    @Test
    default void twoCallsWorkAtOnceAndAThirdGets429UntilOneEnds() throws Exception {
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
        Held fourth = startOnceASeatIsFree("/it/in-flight/work", "d");
        me().get("/it/in-flight/work?id=" + id("e")).then().statusCode(429);

        finish(b);
        finish(fourth.id());
        assertEquals(200, second.get(60, TimeUnit.SECONDS).statusCode());
        assertEquals(200, fourth.answer().get(60, TimeUnit.SECONDS).statusCode());
        // every seat comes back: two calls work at once again
        Held sixth = startOnceASeatIsFree("/it/in-flight/work", "f");
        Held seventh = startOnceASeatIsFree("/it/in-flight/work", "g");
        finish(sixth.id());
        finish(seventh.id());
        assertEquals(200, sixth.answer().get(60, TimeUnit.SECONDS).statusCode());
        assertEquals(200, seventh.answer().get(60, TimeUnit.SECONDS).statusCode());
    }

    @Test
    default void aStreamedBodyHoldsItsSeatUntilItsLastByteIsWritten() throws Exception {
        String s1 = id("s1");
        CompletableFuture<HttpResponse<String>> streaming = start("/it/in-flight/stream?id=" + s1);
        started(s1);
        untilTheSoonestLeaseEnds(me().get("/it/in-flight/stream?id=" + id("s2")).then().statusCode(429)
                .extract().header("Retry-After"));
        finish(s1);
        HttpResponse<String> whole = streaming.get(60, TimeUnit.SECONDS);
        assertEquals(200, whole.statusCode());
        assertEquals("first part\nlast part\n", whole.body());
        Held next = startOnceASeatIsFree("/it/in-flight/stream", "s3");
        finish(next.id());
        assertEquals(200, next.answer().get(60, TimeUnit.SECONDS).statusCode());
    }

    @Test
    default void aCallAnsweredByAStageHoldsItsSeatUntilTheStageCompletes() throws Exception {
        String l1 = id("l1");
        CompletableFuture<HttpResponse<String>> pending = start("/it/in-flight/later?id=" + l1);
        started(l1);
        untilTheSoonestLeaseEnds(me().get("/it/in-flight/later?id=" + id("l2")).then().statusCode(429)
                .extract().header("Retry-After"));
        finish(l1);
        HttpResponse<String> answered = pending.get(60, TimeUnit.SECONDS);
        assertEquals(200, answered.statusCode());
        assertEquals("worked later " + l1, answered.body());
        Held next = startOnceASeatIsFree("/it/in-flight/later", "l3");
        finish(next.id());
        assertEquals(200, next.answer().get(60, TimeUnit.SECONDS).statusCode());
    }

    @Test
    default void aCallWhoseExceptionAMapperAnswersGivesItsSeatBack() throws Exception {
        for (int i = 0; i < 3; i++) {
            answeredOnceASeatIsFree(this, "/it/in-flight/refuse", 409).then().body(equalTo("not today"));
        }
    }

    /**
     * Calls {@code path} as {@code caller} until it answers {@code status}: the seat of the call before comes back
     * just after its caller has read the answer, so a refusal (429) meanwhile is sent again (at most 30 s: only a
     * seat never given back takes that long; the lease is 10 minutes). {@link UnmappedExceptionScenarios} calls it
     * too.
     */
    static io.restassured.response.Response answeredOnceASeatIsFree(Client caller, String path, int status) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            io.restassured.response.Response r = caller.me().get(path);
            if (r.statusCode() != 429) {
                assertEquals(status, r.statusCode(), r.asString());
                return r;
            }
            assertTrue(System.nanoTime() < deadline, "no seat came back within 30 s for " + path);
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
