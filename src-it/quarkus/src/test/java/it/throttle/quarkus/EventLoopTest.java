package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.lettuce.core.codec.ByteArrayCodec;
import it.throttle.scenarios.Observability;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
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
@TestProfile(Profiles.OneEventLoop.class)
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class EventLoopTest {

    @Test
    void aUniEndpointIsThrottledOnTheEventLoop() {
        for (int i = 0; i < 3; i++) {
            given().header("X-Forwarded-For", "10.7.7.7").get("/quarkus/uni").then().statusCode(200)
                    .body(startsWith("uni:vert.x-eventloop-thread"));
        }
        given().header("X-Forwarded-For", "10.7.7.7").get("/quarkus/uni").then().statusCode(429);
    }

    /**
     * A call that waits for its turn holds no thread: while it waits, the one event loop answers other requests;
     * then it proceeds on the event loop. What is checked is what the store and the application report (the
     * reservation in Redis, the decisions' figures, the order of the answers), never how fast this machine is.
     */
    @Test
    void aUniCallWaitsForItsTurnWithoutHoldingTheEventLoop() throws Exception {
        String client = "10.7.9.9";
        String first = given().header("X-Forwarded-For", client).get("/quarkus/uni-wait").then().statusCode(200)
                .body(startsWith("waited 0 reset ")).body(containsString(" on vert.x-eventloop-thread")).extract().asString();
        // the first call's second leaves the 10 s window between 9 and 10 s after the store counted it
        long firstReset = figure(first, "reset");
        assertTrue(firstReset > 9000 && firstReset <= 10_000, first);
        HttpClient http = HttpClient.newHttpClient();
        CompletableFuture<HttpResponse<String>> waiting = http.sendAsync(request("/quarkus/uni-wait")
                .header("X-Forwarded-For", client).build(), HttpResponse.BodyHandlers.ofString());
        // once its reservation is in Redis, the call waits in the server, not in the client or on the wire
        Reservation reserved = awaitReservation(waiting);
        assertEquals(1, reserved.counted(), "the first call is the one counted: " + reserved);
        assertEquals(1, reserved.weight(), reserved.toString());
        // reserved where the first call's weight leaves: at the end of the window that starts with its second
        assertEquals(reserved.newest() + 10, reserved.subBucket(), reserved.toString());
        assertEquals((reserved.newest() + 10) * 1000, reserved.at(), reserved.toString());
        long pong = figure(given().get("/quarkus/ping").then().statusCode(200).body(startsWith("pong ")).extract().asString(), "pong");

        HttpResponse<String> answer = waiting.get(60, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(figure(answer.body(), "answer") > pong,
                "the event loop answered the ping only after the waiting call proceeded: " + answer.body() + ", pong " + pong);
        long waited = figure(answer.body(), "waited");
        // it waited until the first call's weight left the window (its reset, from the same decision), no longer
        // than the first call's reset said, since it was decided later
        assertEquals(figure(answer.body(), "reset"), waited, answer.body());
        assertTrue(waited > 0 && waited <= firstReset, answer.body() + "; the first call's reset: " + firstReset);
        assertTrue(answer.body().contains(" on vert.x-eventloop-thread"), answer.body());
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
            Observability.await("a script call held by Redis", Duration.ofSeconds(20), RedisResource::holdsAClient);
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> ping = http.send(request("/quarkus/ping").timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertTrue(ping.body().startsWith("pong "), ping.body());
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
            Observability.await("a script call held by Redis", Duration.ofSeconds(20), RedisResource::holdsAClient);
            HttpResponse<String> ping = http.send(request("/quarkus/ping").timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(ping.body().startsWith("pong"), ping.body());
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

    /**
     * A throttled bean method's body runs where its caller is: a worker that calls it (or subscribes to its
     * {@code Uni}) waits for the decision and runs the body itself, in its own scopes; a caller on the event loop
     * goes on on the event loop. A refusal lands by the same rule: the application's callback runs on the worker.
     */
    @Test
    void aThrottledBeanMethodsBodyRunsWhereItsCallerIs() {
        for (int i = 0; i < 3; i++) {
            // the stage's body also reads the logging context (MDC) its caller set: it came along
            String worker = given().get("/quarkus/landing/stage-worker").then().statusCode(200).extract().asString();
            assertTrue(worker.endsWith(" mdc=" + worker.replaceAll("^caller=(\\S+) .*$", "$1")), worker);
            sameThread(worker.replaceFirst(" mdc=\\S+$", ""), "executor-thread");
            String loop = given().get("/quarkus/landing/stage-loop").then().statusCode(200).extract().asString();
            assertTrue(loop.endsWith(" mdc=" + loop.replaceAll("^caller=(\\S+) .*$", "$1")), loop);
            sameThread(loop.replaceFirst(" mdc=\\S+$", ""), "vert.x-eventloop-thread");
            sameThread(given().get("/quarkus/landing/uni-worker").then().statusCode(200).extract().asString(), "executor-thread");
            sameThread(given().get("/quarkus/landing/uni-loop").then().statusCode(200).extract().asString(), "vert.x-eventloop-thread");
        }
        // one call an hour: the first (in this test or an earlier run of the class) may pass; the later are refused
        given().get("/quarkus/landing/scarce-worker").then().statusCode(200);
        for (int i = 0; i < 2; i++) {
            String refused = given().get("/quarkus/landing/scarce-worker").then().statusCode(200).extract().asString();
            String caller = refused.replaceAll("^caller=(\\S+) .*$", "$1");
            assertEquals("caller=" + caller + " refused-on=" + caller, refused);
            assertTrue(caller.startsWith("executor-thread"), refused);
        }
    }

    /** {@code caller=<t> body=<t>} with one thread, of the kind named. */
    private static void sameThread(String answer, String kind) {
        String caller = answer.replaceAll("^caller=(\\S+) .*$", "$1");
        assertEquals("caller=" + caller + " body=" + caller, answer);
        assertTrue(caller.startsWith(kind), answer);
    }

    /** The number that follows {@code name} in a space-separated answer ({@code waited 9512 reset 9512 ...}). */
    private static long figure(String answer, String name) {
        String[] words = answer.split(" ");
        for (int i = 0; i < words.length - 1; i++) {
            if (words[i].equals(name)) {
                return Long.parseLong(words[i + 1]);
            }
        }
        throw new AssertionError("no " + name + " in " + answer);
    }

    /**
     * A window's reservation as {@code sliding-window.lua} keeps it (its header comment is the contract): from the
     * field {@code <tag>+}, the latest reserved time and the one reserved sub-bucket with its weight; from the window's
     * header {@code <tag>}, the newest sub-bucket holding weight and the weight counted.
     */
    private record Reservation(long at, long subBucket, long weight, long newest, long counted) {
    }

    /**
     * The first reservation Redis holds, asked every 20 ms for at most 30 s (only a real fault takes that long) while
     * the call that should be reserved is still unanswered.
     */
    private static Reservation awaitReservation(CompletableFuture<HttpResponse<String>> call) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Optional<Reservation> r = reservation();
            if (r.isPresent()) {
                return r.get();
            }
            if (call.isDone()) {
                throw new AssertionError("answered without a reservation in Redis: " + call.get().body());
            }
            assertTrue(System.nanoTime() < deadline, "no reservation in Redis within 30 s");
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /** The reservation of some window in Redis: a field named by the window's tag and {@code +}. */
    private static Optional<Reservation> reservation() {
        try (io.lettuce.core.RedisClient c = io.lettuce.core.RedisClient.create(RedisResource.redis.uri());
             io.lettuce.core.api.StatefulRedisConnection<byte[], byte[]> conn = c.connect(ByteArrayCodec.INSTANCE)) {
            for (byte[] key : conn.sync().keys("*".getBytes(StandardCharsets.UTF_8))) {
                if (!"hash".equals(conn.sync().type(key))) {
                    continue;
                }
                Map<byte[], byte[]> fields = conn.sync().hgetall(key);
                for (Map.Entry<byte[], byte[]> f : fields.entrySet()) {
                    String name = new String(f.getKey(), StandardCharsets.ISO_8859_1);
                    if (name.endsWith("+") && f.getValue().length == 8 + 12) {
                        ByteBuffer plus = ByteBuffer.wrap(f.getValue()).order(ByteOrder.LITTLE_ENDIAN);
                        long at = (long) plus.getDouble();
                        long subBucket = (long) plus.getDouble();
                        long weight = Integer.toUnsignedLong(plus.getInt());
                        String tag = name.substring(0, name.length() - 1);
                        byte[] head = fields.entrySet().stream()
                                .filter(h -> new String(h.getKey(), StandardCharsets.ISO_8859_1).equals(tag))
                                .map(Map.Entry::getValue).findFirst().orElseThrow();
                        ByteBuffer header = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
                        long newest = (long) header.getDouble();
                        long counted = Integer.toUnsignedLong(header.getInt());
                        return Optional.of(new Reservation(at, subBucket, weight, newest, counted));
                    }
                }
            }
            return Optional.empty();
        }
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + path));
    }

}
