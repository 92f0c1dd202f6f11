package it.throttle.quarkus;

import io.github.throttle.ThrottleAdmin;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import it.throttle.scenarios.RawHttp;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 10,000 generated requests — random methods, paths, header names and values (hostile forwarding
 * headers, CRLF-free garbage, unicode, 8 KB values), bodies — against the application on Redis: the
 * library causes no 5xx, and quotas are exact afterwards.
 */
@QuarkusTest
@WithTestResource(value = RedisResource.class, scope = TestResourceScope.MATCHING_RESOURCES)
class HostileRequestsTest {

    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE"};
    private static final String[] PATHS = {"/it/fixed", "/it/multi", "/it/weighted", "/it/by-user", "/it/by-header",
            "/it/by-address", "/it/by-address-and-user", "/it/upload", "/it/async", "/it/service", "/it/class/one",
            "/it/override/limited", "/quarkus/uni", "/it/nope", "/it/fixed/../fixed", "/it/%7Bx%7D", "/"};
    private static final String[] HEADERS = {"X-Forwarded-For", "Forwarded", "X-API-Key", "X-Test-User", "Content-Type",
            "Accept", "X-Random"};

    @Inject
    ThrottleAdmin admin;

    /**
     * The generated requests use up quotas that the other tests on this application and Redis count on too (that of
     * a caller whose address cannot be read, say): they find every count at zero again.
     */
    @AfterEach
    void forgetTheCounts() {
        admin.resetAll();
    }

    @Test
    void tenThousandGeneratedRequestsCauseNoServerErrorAndQuotasStayExact() throws Exception {
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> serverErrors = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Future<?>[] fs = new Future<?>[8];
            for (int t = 0; t < 8; t++) {
                long seed = 1000 + t;
                fs[t] = pool.submit(() -> {
                    Random rnd = new Random(seed);
                    for (int i = 0; i < 1250; i++) {
                        String req = request(rnd);
                        int status = send(req);
                        statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                        if (status >= 500) {
                            serverErrors.add(status + " for " + req.substring(0, Math.min(300, req.length())));
                        }
                    }
                    return null;
                });
            }
            for (Future<?> f : fs) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println("statuses of 10,000 generated requests: " + statuses);
        assertTrue(serverErrors.isEmpty(), serverErrors.size() + " server errors, e.g. " + serverErrors.peek());
        assertTrue(statuses.getOrDefault(429, new AtomicInteger()).get() > 0, "the load was throttled");
        assertTrue(statuses.getOrDefault(200, new AtomicInteger()).get() > 0);

        // afterwards, a new client has exactly its quota
        for (int i = 0; i < 3; i++) {
            given().header("X-Forwarded-For", "10.77.0.1").get("/it/fixed").then().statusCode(200);
        }
        given().header("X-Forwarded-For", "10.77.0.1").get("/it/fixed").then().statusCode(429);
    }

    private static String request(Random rnd) {
        String method = METHODS[rnd.nextInt(METHODS.length)];
        String path = PATHS[rnd.nextInt(PATHS.length)];
        if (rnd.nextInt(10) == 0) {
            path += "?q=" + token(rnd, 1 + rnd.nextInt(50));
        }
        StringBuilder b = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
        int headers = rnd.nextInt(6);
        for (int h = 0; h < headers; h++) {
            String name = rnd.nextInt(5) == 0 ? "X-" + token(rnd, 1 + rnd.nextInt(20)).replaceAll("[^A-Za-z0-9-]", "a") : HEADERS[rnd.nextInt(HEADERS.length)];
            b.append(name).append(": ").append(value(rnd)).append("\r\n");
        }
        String body = rnd.nextInt(4) == 0 ? token(rnd, rnd.nextInt(2000)) : "";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (!method.equals("GET") && !method.equals("HEAD") || !body.isEmpty()) {
            b.append("Content-Length: ").append(bytes.length).append("\r\n");
        }
        b.append("\r\n").append(body);
        return b.toString();
    }

    private static String value(Random rnd) {
        return switch (rnd.nextInt(12)) {
            case 0 -> "10.0." + rnd.nextInt(3) + "." + rnd.nextInt(3);
            case 1 -> "for=\"[2001:db8::" + rnd.nextInt(9) + "]:80\";proto=https, for=unknown, for=_obf" + rnd.nextInt(3);
            case 2 -> "for=\"unterminated, for=;;;==,,,\"\\\"";
            case 3 -> String.join(", ", java.util.Collections.nCopies(100, "10.0.0." + rnd.nextInt(250)));
            case 4 -> "{" + token(rnd, 10) + "}:*";
            case 5 -> "x".repeat(8000);
            case 6 -> "ünï©ødé-" + rnd.nextInt(5);
            case 7 -> "";
            case 8 -> "   ";
            default -> token(rnd, 1 + rnd.nextInt(40));
        };
    }

    private static String token(Random rnd, int n) {
        String chars = "abcXYZ019-_.:;,=/{}*~\"'<>%@!";
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append(chars.charAt(rnd.nextInt(chars.length())));
        }
        return b.toString();
    }

    private static int send(String request) {
        return RawHttp.send(RestAssured.port, request);
    }
}
