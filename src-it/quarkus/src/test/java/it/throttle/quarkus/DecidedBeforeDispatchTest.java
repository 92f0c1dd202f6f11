package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import it.throttle.scenarios.Observability;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On Quarkus REST a throttled call is decided on the event loop, before the request is dispatched to a worker
 * thread: no thread waits for the store. Shown with one event loop and a worker pool of four threads: an allowed
 * blocking call then runs on a worker, a non-blocking one on the event loop, a refused one is answered from the event
 * loop; while Redis holds every decision, more throttled blocking calls than there are workers hold none of them;
 * and each call reaches the store once. A key resolver the application marks blocking is run on the worker.
 */
@QuarkusTest
@TestProfile(Profiles.OneEventLoop.class)
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class DecidedBeforeDispatchTest {

    private static final int WORKERS = Profiles.OneEventLoop.WORKERS;

    @Test
    void anAllowedBlockingCallIsDecidedOnTheEventLoopAndRunsOnAWorker() {
        given().header("X-Caller", "blocking-1").get("/quarkus/threads/blocking").then().statusCode(200)
                .body(startsWith("ran on executor-thread")).header("RateLimit", startsWith("\"1h\";r=1"));
        assertTrue(decidedOn("blocking-1").startsWith("vert.x-eventloop-thread"), decidedOn("blocking-1"));
    }

    @Test
    void anAllowedNonBlockingCallRunsOnTheEventLoop() {
        given().header("X-Caller", "non-blocking-1").get("/quarkus/threads/non-blocking").then().statusCode(200)
                .body(startsWith("ran on vert.x-eventloop-thread")).header("RateLimit", startsWith("\"1h\";r=1"));
        assertTrue(decidedOn("non-blocking-1").startsWith("vert.x-eventloop-thread"), decidedOn("non-blocking-1"));
    }

    @Test
    void aRefusedBlockingCallIsAnsweredFromTheEventLoop() {
        for (int i = 0; i < 2; i++) {
            given().header("X-Caller", "refused-1").get("/quarkus/threads/blocking").then().statusCode(200)
                    .header("X-Answered-On", startsWith("executor-thread"));
        }
        // never dispatched: its response is made where it was decided
        given().header("X-Caller", "refused-1").get("/quarkus/threads/blocking").then().statusCode(429)
                .header("Retry-After", matchesPattern("\\d+"))
                .header("X-Answered-On", startsWith("vert.x-eventloop-thread"));
    }

    @Test
    void aKeyResolverMarkedBlockingRunsOnTheWorker() {
        given().header("X-Caller", "marked-1").get("/quarkus/threads/blocking-key").then().statusCode(200)
                .body(startsWith("ran on executor-thread")).header("RateLimit", startsWith("\"1h\";r=1"));
        assertTrue(decidedOn("marked-1").startsWith("executor-thread"), decidedOn("marked-1"));
        given().header("X-Caller", "marked-1").get("/quarkus/threads/blocking-key").then().statusCode(200);
        given().header("X-Caller", "marked-1").get("/quarkus/threads/blocking-key").then().statusCode(429);
    }

    /** Decided by the method's own filter, on the event loop while Redis answers, and applied when it resumes. */
    @Test
    void anInheritedLimitIsDecidedOnTheEventLoopToo() {
        for (int i = 0; i < 2; i++) {
            given().header("X-API-Key", "inherited-1").get("/quarkus/inherited").then().statusCode(200)
                    .body(startsWith("inherited on vert.x-eventloop-thread")).header("RateLimit", startsWith("\"1h\";r=" + (1 - i)));
        }
        given().header("X-API-Key", "inherited-1").get("/quarkus/inherited").then().statusCode(429);
    }

    @Test
    void eachCallReachesTheStoreOnce() {
        // the script is loaded: a first run that found it missing would count twice
        given().header("X-Caller", "once-warm-up").get("/quarkus/threads/blocking").then().statusCode(200);
        for (String path : List.of("/quarkus/threads/blocking", "/quarkus/threads/non-blocking", "/quarkus/threads/blocking-key")) {
            long before = scriptRuns();
            for (int i = 0; i < 3; i++) {
                given().header("X-Caller", "once-" + path).get(path).then().statusCode(i < 2 ? 200 : 429);
            }
            assertEquals(3, scriptRuns() - before, "script runs for three calls of " + path);
        }
    }

    @Test
    void whileRedisHoldsEveryDecisionNoWorkerWaits() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        assertEquals("OK", RedisResource.command("CLIENT", "PAUSE", "300000", "WRITE"));
        List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
        try {
            // twice as many throttled blocking calls as there are workers, each waiting for its decision
            for (int i = 0; i < 2 * WORKERS; i++) {
                held.add(http.sendAsync(request("/quarkus/threads/blocking").header("X-Caller", "held-" + i).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            Observability.await("script calls held by Redis", Duration.ofSeconds(20), RedisResource::holdsAClient);
            // a blocking call needs a worker: every one of them is free
            for (int i = 0; i < 2 * WORKERS; i++) {
                HttpResponse<String> free = http.send(request("/quarkus/threads/unthrottled").timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, free.statusCode(), free.body());
                assertTrue(free.body().startsWith("ran on executor-thread"), free.body());
            }
            // and the one event loop answers too
            HttpResponse<String> onEventLoop = http.send(request("/quarkus/threads/decided-on?caller=held-0")
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, onEventLoop.statusCode(), onEventLoop.body());
            assertTrue(held.stream().noneMatch(CompletableFuture::isDone), "a throttled call finished while Redis held its decision");
        } finally {
            RedisResource.command("CLIENT", "UNPAUSE");
        }
        for (CompletableFuture<HttpResponse<String>> f : held) {
            HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().startsWith("ran on executor-thread"), r.body());
        }
    }

    private static String decidedOn(String caller) {
        return given().queryParam("caller", caller).get("/quarkus/threads/decided-on").then().statusCode(200).extract().asString();
    }

    /** How many times Redis ran a script by its digest ({@code INFO commandstats}). */
    private static long scriptRuns() {
        for (String line : RedisResource.info("commandstats").split("\r\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                return Long.parseLong(line.replaceAll("^cmdstat_evalsha:calls=(\\d+),.*", "$1"));
            }
        }
        throw new AssertionError("no EVALSHA in INFO commandstats: " + RedisResource.info("commandstats"));
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + path));
    }

}
