package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Redis killed under load, then restarted empty, with {@code throttle.on-store-failure=allow}. */
@QuarkusTest
@TestProfile(RedisOutageTest.Profile.class)
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class RedisOutageTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("throttle.redis.timeout", "300ms");
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    private CompletableFuture<HttpResponse<String>> get(String path, String client) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + path))
                .header("X-Forwarded-For", client).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void whenRedisDiesCallsPassUncountedAndCountingResumesAfterARestart() throws Exception {
        assertTrue(get("/it/by-address", "10.4.0.1").get().headers().firstValue("RateLimit").isPresent());

        // a few hundred requests in flight while Redis is killed, and more following
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < 300; i++) {
            inFlight.add(get("/it/by-address", "10.4.1." + (i % 250)));
            if (i == 100) {
                RedisResource.redis.kill();
            }
        }
        int ok = 0;
        int uncounted = 0;
        for (CompletableFuture<HttpResponse<String>> f : inFlight) {
            HttpResponse<String> r = f.get(30, TimeUnit.SECONDS);
            if (r.statusCode() == 200 || r.statusCode() == 429) {
                ok++;
            }
            if (r.headers().firstValue("RateLimit").isEmpty()) {
                uncounted++;
            }
        }
        long allMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(300, ok, "every request answered 200/429, none failed");
        assertTrue(uncounted > 0);

        // while Redis stays down, each request answers at once (open period), not after the timeout
        long worst = 0;
        for (int i = 0; i < 50; i++) {
            long t = System.nanoTime();
            HttpResponse<String> r = get("/it/by-address", "10.4.2." + i).get(10, TimeUnit.SECONDS);
            worst = Math.max(worst, (System.nanoTime() - t) / 1_000_000);
            assertEquals(200, r.statusCode());
        }
        System.out.println("outage: 300 requests around the kill answered in " + allMs + " ms in all (" + uncounted
                + " uncounted); then 50 sequential requests, slowest " + worst + " ms (timeout 300 ms)");

        RedisResource.redis.restart();
        long restarted = System.nanoTime();
        long deadline = restarted + TimeUnit.SECONDS.toNanos(5);
        HttpResponse<String> r;
        do {
            r = get("/it/by-address", "10.4.3.1").get(10, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode(), "no error reaches a caller");
        } while (r.headers().firstValue("RateLimit").isEmpty() && System.nanoTime() < deadline);
        long back = (System.nanoTime() - restarted) / 1_000_000;
        System.out.println("counting again " + back + " ms after Redis restarted empty");
        assertTrue(r.headers().firstValue("RateLimit").isPresent(), "not counting 5 s after the restart");
        // exact again: the address has 2 per hour
        int status2 = get("/it/by-address", "10.4.3.1").get().statusCode();
        int status3 = get("/it/by-address", "10.4.3.1").get().statusCode();
        assertEquals(List.of(200, 429), List.of(status2, status3));
    }
}
