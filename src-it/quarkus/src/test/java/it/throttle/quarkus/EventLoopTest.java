package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code Uni} endpoint runs on the Vert.x event loop; while Redis decides, Throttle suspends the request
 * instead of blocking that thread. Proven with a Redis paused for 2.5 s: other requests are served
 * meanwhile and Vert.x reports no blocked thread.
 */
@QuarkusTest
@TestProfile(EventLoopTest.Profile.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class EventLoopTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("throttle.redis.timeout", "5s", "quarkus.vertx.max-event-loop-execute-time", "200ms");
        }
    }

    private final ConcurrentLinkedQueue<String> warnings = new ConcurrentLinkedQueue<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            String m = String.valueOf(r.getMessage());
            if (m.contains("blocked") || r.getLoggerName().contains("BlockedThreadChecker")) {
                warnings.add(r.getLoggerName() + ": " + m);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        Logger.getLogger("").addHandler(handler);
        Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker").addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        Logger.getLogger("").removeHandler(handler);
        Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker").removeHandler(handler);
    }

    @Test
    void aUniEndpointIsThrottledOnTheEventLoop() {
        for (int i = 0; i < 3; i++) {
            given().header("X-Forwarded-For", "10.7.7.7").get("/quarkus/uni").then().statusCode(200)
                    .body(startsWith("uni:vert.x-eventloop-thread"));
        }
        given().header("X-Forwarded-For", "10.7.7.7").get("/quarkus/uni").then().statusCode(429);
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
        // Redis holds every command for 2.5 s: each throttled request waits that long for its decision
        assertEquals("OK", RedisResource.command("CLIENT", "PAUSE", "2500", "ALL"));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<String>>> throttled = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            throttled.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/quarkus/uni"))
                    .header("X-Forwarded-For", "10.8.8." + (i + 1)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> ping = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/quarkus/ping")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("pong", ping.body());
        }
        // the event loops answered while every throttled request was still waiting for Redis
        assertTrue(throttled.stream().noneMatch(CompletableFuture::isDone), "a throttled request finished before Redis resumed");
        for (CompletableFuture<HttpResponse<String>> r : throttled) {
            assertEquals(200, r.get(10, TimeUnit.SECONDS).statusCode());
        }
        assertFalse(!warnings.isEmpty(), "Vert.x reported a blocked thread: " + warnings);
    }
}
