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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Redis drops its scripts ({@code SCRIPT FLUSH}) and then restarts empty while requests keep coming, on the
 * event loop and on worker threads. No error reaches a caller: during the flushes every call is still counted, across the restart calls pass uncounted
 * ({@code on-store-failure=allow}) and counting resumes by itself. The application's Redis timeout (5 s) is
 * generous: a loaded test machine must not turn a slow answer into an uncounted call.
 */
@QuarkusTest
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class RedisFaultsUnderLoadTest {

    private static final int CALLERS = 16;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    /** What the callers saw: responses by phase, counted or not, and every failure. */
    private static final class Seen {
        volatile String phase = "warm-up";
        volatile boolean stop;
        final Map<String, AtomicInteger> counted = phases();
        final Map<String, AtomicInteger> uncounted = phases();

        private static Map<String, AtomicInteger> phases() {
            return Map.of("warm-up", new AtomicInteger(), "flush", new AtomicInteger(), "restart", new AtomicInteger(),
                    "after", new AtomicInteger(), "between", new AtomicInteger());
        }
        final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();

        /** Counts an answer of {@code phase} and wakes whoever waits for answers. */
        synchronized void answered(Map<String, AtomicInteger> how, String phase) {
            how.get(phase).incrementAndGet();
            notifyAll();
        }

        /** Waits, woken by answers, until {@code phase} has at least {@code n} counted answers; false after the timeout. */
        synchronized boolean awaitCounted(String phase, int n, long timeoutSeconds) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (counted.get(phase).get() < n) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }
    }

    /** One caller: a request, then the next when it is answered, until told to stop. */
    private void call(Seen seen, int caller, int n, CompletableFuture<Void> done) {
        if (seen.stop) {
            done.complete(null);
            return;
        }
        String sent = seen.phase;
        String path = caller % 2 == 0 ? "/quarkus/busy" : "/quarkus/busy-worker";
        http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + path))
                        .header("X-Forwarded-For", "10.9." + caller + "." + (n % 200)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
            // a call belongs to a phase when it was both sent and answered in it; others to "between"
            String phase = seen.phase.equals(sent) ? sent : "between";
            if (e != null) {
                seen.errors.add(phase + " " + path + ": " + e);
            } else if (r.statusCode() != 200) {
                seen.errors.add(phase + " " + path + ": " + r.statusCode() + " " + r.body());
            } else {
                seen.answered(r.headers().firstValue("RateLimit").isPresent() ? seen.counted : seen.uncounted, phase);
            }
            call(seen, caller, n + 1, done);
        });
    }

    @Test
    void scriptFlushesAndARestartUnderLoadReachNoCaller() throws Exception {
        Seen seen = new Seen();
        List<CompletableFuture<Void>> callers = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            callers.add(done);
            call(seen, i, 0, done);
        }
        assertTrue(seen.awaitCounted("warm-up", 100, 30), "the callers never got going: " + seen.counted);
        assertEquals("OK", RedisResource.command("SCRIPT", "FLUSH"));
        seen.phase = "flush";
        // each flush waits for fresh answers, so that every flush meets calls that need the script again
        int flushes = 0;
        while (flushes < 40) {
            assertTrue(seen.awaitCounted("flush", 5 * (flushes + 1), 30), "calls stopped during the flushes: " + seen.counted);
            assertEquals("OK", RedisResource.command("SCRIPT", "FLUSH"));
            flushes++;
        }
        seen.phase = "restart";
        RedisResource.redis.restart();
        // counting resumes on its own: a caller is counted again
        boolean resumed = seen.awaitCounted("restart", 1, 30);
        seen.phase = "after";
        boolean keptCounting = resumed && seen.awaitCounted("after", 100, 30);
        seen.stop = true;
        CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        System.out.println("under load: " + flushes + " SCRIPT FLUSH, then a restart; counted " + seen.counted + ", uncounted " + seen.uncounted);

        assertTrue(seen.errors.isEmpty(), seen.errors.size() + " calls failed, first: " + seen.errors.peek());
        assertEquals(0, seen.uncounted.get("flush").get(), "a call went uncounted while Redis only dropped its scripts");
        assertTrue(resumed, "not counting 30 s after Redis restarted: " + seen.counted);
        assertTrue(keptCounting, "calls stopped after counting resumed: " + seen.counted);
        assertEquals(0, seen.uncounted.get("after").get(), "a call went uncounted after counting resumed");
    }
}
