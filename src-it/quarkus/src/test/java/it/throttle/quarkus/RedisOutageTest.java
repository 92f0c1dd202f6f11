package it.throttle.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
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
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redis killed under load, then restarted empty, with {@code throttle.on-store-failure=allow} and the default
 * timeout: a killed server refuses commands at once, so no timeout is needed to notice it.
 */
@QuarkusTest
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class RedisOutageTest {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();

    private CompletableFuture<HttpResponse<String>> get(String path, String client) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + path))
                .header("X-Forwarded-For", client).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> call(String path, String client) throws Exception {
        return get(path, client).get(60, TimeUnit.SECONDS);
    }

    private static boolean counted(HttpResponse<String> r) {
        return r.headers().firstValue("RateLimit").isPresent();
    }

    @Test
    void whenRedisDiesCallsPassUncountedAndCountingResumesAfterARestart() throws Exception {
        assertTrue(counted(call("/it/by-address", "10.4.0.1")));

        // a few hundred requests in flight while Redis is killed, and more following
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            inFlight.add(get("/it/by-address", "10.4.1." + (i % 250)));
            if (i == 100) {
                RedisResource.redis.kill();
            }
        }
        int ok = 0;
        int uncounted = 0;
        for (CompletableFuture<HttpResponse<String>> f : inFlight) {
            HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
            if (r.statusCode() == 200 || r.statusCode() == 429) {
                ok++;
            }
            if (!counted(r)) {
                uncounted++;
            }
        }
        assertEquals(300, ok, "every request answered 200/429, none failed");
        // the 199 sent after the kill cannot have been counted
        assertTrue(uncounted >= 199, uncounted + " uncounted");

        // while Redis stays down, every request is served, uncounted
        for (int i = 0; i < 50; i++) {
            HttpResponse<String> r = call("/it/by-address", "10.4.2." + i);
            assertEquals(200, r.statusCode());
            assertFalse(counted(r));
        }

        RedisResource.redis.restart();
        // counting resumes on its own: a new client each time, so that waiting spends no one's quota
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int i = 0; ; i++) {
            HttpResponse<String> r = call("/it/by-address", "10.4.3." + (1 + i % 250));
            assertEquals(200, r.statusCode(), "no error reaches a caller");
            if (counted(r)) {
                break;
            }
            assertTrue(System.nanoTime() < deadline, "not counting 30 s after the restart");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
        }
        // exact again: an address has 2 per hour
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            statuses.add(call("/it/by-address", "10.4.4.1").statusCode());
        }
        assertEquals(List.of(200, 200, 429), statuses);
    }
}
