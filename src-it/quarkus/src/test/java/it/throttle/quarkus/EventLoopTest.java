package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code Uni} endpoint runs on the Vert.x event loop; while Redis decides, Throttle suspends the request
 * instead of blocking that thread. Proven with one event loop and a Redis that holds every script call: while a
 * throttled request waits for its decision, the same event loop keeps answering other requests.
 */
@QuarkusTest
@TestProfile(EventLoopTest.Profile.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class EventLoopTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // one event loop: a blocked one would leave nothing to answer with; the longest timeout, beyond what
            // the test holds Redis for, so that every held call is decided by Redis, not by the timeout
            return Map.of("quarkus.vertx.event-loops-pool-size", "1", "throttle.redis.timeout", "60s");
        }
    }

    @Test
    void aUniEndpointIsThrottledOnTheEventLoop() {
        for (int i = 0; i < 3; i++) {
            given().header("X-Forwarded-For", "10.7.7.7").get("/quarkus/uni").then().statusCode(200)
                    .body(startsWith("uni:vert.x-eventloop-thread"));
        }
        given().header("X-Forwarded-For", "10.7.7.7").get("/quarkus/uni").then().statusCode(429);
    }

    /**
     * A call that waits for its turn holds no thread: while it waits (more than 9 s), the one event loop answers
     * other requests; then it proceeds on the event loop.
     */
    @Test
    void aUniCallWaitsForItsTurnWithoutHoldingTheEventLoop() throws Exception {
        String client = "10.7.9.9";
        given().header("X-Forwarded-For", client).get("/quarkus/uni-wait").then().statusCode(200)
                .body(startsWith("waited 0 on vert.x-eventloop-thread"));
        HttpClient http = HttpClient.newHttpClient();
        CompletableFuture<HttpResponse<String>> waiting = http.sendAsync(request("/quarkus/uni-wait")
                .header("X-Forwarded-For", client).build(), HttpResponse.BodyHandlers.ofString());
        // once its reservation is in Redis, the call waits in the server, not in the client or on the wire
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!reservedInRedis()) {
            assertTrue(System.nanoTime() < deadline, "no reservation in Redis within 30 s");
            TimeUnit.MILLISECONDS.sleep(20);
        }
        given().get("/quarkus/ping").then().statusCode(200).body(equalTo("pong"));
        assertTrue(!waiting.isDone(), "the waiting call was answered before the event loop answered another request");
        HttpResponse<String> answer = waiting.get(60, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        long waited = Long.parseLong(answer.body().split(" ")[1]);
        assertTrue(waited > 9000 && waited <= 10_000, answer.body());
        assertTrue(answer.body().contains("on vert.x-eventloop-thread"), answer.body());
    }

    /** Decided while the request is suspended, the call's plan and decision reach the method on the event loop. */
    @Test
    void aUniEndpointSeesTheDecisionOfItsCallersPlan() {
        String client = "10.7.8.9";
        given().header("X-Forwarded-For", client).get("/quarkus/plans").then().statusCode(200)
                .body(startsWith("plan=default remaining=2 on vert.x-eventloop-thread"));
        given().header("X-Forwarded-For", client).header("X-Plan", "pro").get("/quarkus/plans").then().statusCode(200)
                .body(startsWith("plan=pro remaining=8 on vert.x-eventloop-thread"))
                .header("RateLimit-Policy", equalTo("\"1h\";q=10;w=3600"));
        given().header("X-Forwarded-For", client).header("X-API-Key", "unlimited-key").get("/quarkus/plans").then().statusCode(200)
                .body(startsWith("plan=unlimited remaining=" + Long.MAX_VALUE + " on vert.x-eventloop-thread"))
                .header("RateLimit", nullValue());
        given().header("X-Forwarded-For", client).header("X-Plan", "blocked").get("/quarkus/plans").then().statusCode(403)
                .header("Access-Control-Allow-Origin", equalTo("*")).header("RateLimit", nullValue());
    }

    @Test
    void aUniLoginGivesTheWeightOfSuccessesBack() {
        String client = "10.7.8.10";
        for (int i = 0; i < 3; i++) {
            given().header("X-Forwarded-For", client).body("secret").post("/quarkus/login").then().statusCode(200)
                    .header("RateLimit", matchesPattern("\"1h\";r=1;t=\\d+"));
        }
        given().header("X-Forwarded-For", client).body("wrong").post("/quarkus/login").then().statusCode(401);
        given().header("X-Forwarded-For", client).body("wrong").post("/quarkus/login").then().statusCode(401)
                .header("RateLimit", matchesPattern("\"1h\";r=0;t=\\d+"));
        given().header("X-Forwarded-For", client).body("secret").post("/quarkus/login").then().statusCode(429);
    }

    @Test
    void whileRedisIsSlowTheEventLoopKeepsServing() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        // Redis holds every script call (not the other commands) until told to go on: much longer than this test
        assertEquals("OK", RedisResource.command("CLIENT", "PAUSE", "300000", "WRITE"));
        List<CompletableFuture<HttpResponse<String>>> throttled = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                throttled.add(http.sendAsync(request("/quarkus/uni").header("X-Forwarded-For", "10.8.8." + (i + 1)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            // a throttled request's script call has reached Redis and waits there
            Observability.await("a script call held by Redis", Duration.ofSeconds(20), EventLoopTest::redisHoldsAClient);
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> ping = http.send(request("/quarkus/ping").timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals("pong", ping.body());
            }
            // the one event loop answered while throttled requests were still waiting for Redis
            assertTrue(throttled.stream().noneMatch(CompletableFuture::isDone), "a throttled request finished while Redis held its calls");
        } finally {
            RedisResource.command("CLIENT", "UNPAUSE");
        }
        for (CompletableFuture<HttpResponse<String>> f : throttled) {
            HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("RateLimit").isPresent(), "decided by Redis, once it went on");
        }
    }

    /**
     * A throttled bean method returning a {@code Uni}, called from an event-loop endpoint, is decided on
     * subscription without blocking: while Redis holds its script call, the one event loop keeps answering; once
     * Redis answers, the method runs back on the event loop; a refused call becomes a 429.
     */
    @Test
    void aThrottledBeanUniIsDecidedWithoutHoldingTheEventLoop() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        assertEquals("OK", RedisResource.command("CLIENT", "PAUSE", "300000", "WRITE"));
        CompletableFuture<HttpResponse<String>> held;
        try {
            held = http.sendAsync(request("/quarkus/bean-uni").build(), HttpResponse.BodyHandlers.ofString());
            Observability.await("a script call held by Redis", Duration.ofSeconds(20), EventLoopTest::redisHoldsAClient);
            HttpResponse<String> ping = http.send(request("/quarkus/ping").timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("pong", ping.body());
            assertTrue(!held.isDone(), "the bean's call finished while Redis held its decision");
        } finally {
            RedisResource.command("CLIENT", "UNPAUSE");
        }
        HttpResponse<String> answer = held.get(60, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().startsWith("report ran on vert.x-eventloop-thread"), answer.body());
        given().get("/quarkus/bean-uni").then().statusCode(200);
        given().get("/quarkus/bean-uni").then().statusCode(429).header("Retry-After", matchesPattern("\\d+"));
    }

    /** Whether some window in Redis holds a reservation: a field named by the window's tag and {@code +}. */
    private static boolean reservedInRedis() {
        try (io.lettuce.core.RedisClient c = io.lettuce.core.RedisClient.create(RedisResource.redis.uri());
             io.lettuce.core.api.StatefulRedisConnection<String, String> conn = c.connect()) {
            for (String key : conn.sync().keys("*")) {
                if ("hash".equals(conn.sync().type(key)) && conn.sync().hkeys(key).stream().anyMatch(f -> f.endsWith("+"))) {
                    return true;
                }
            }
            return false;
        }
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + path));
    }

    /** Whether Redis holds a client's command (a client blocked, here by {@code CLIENT PAUSE}). */
    private static boolean redisHoldsAClient() {
        return RedisResource.clients().lines().anyMatch(l -> l.matches(".* flags=\\w*b\\w* .*"));
    }
}
