package it.throttle.payara;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.StoreOutage;
import io.github.throttle.testing.RedisProcess;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scenarios on Payara Micro counting in a real Redis, configured by the THROTTLE_REDIS_URI environment variable. */
class OnRedisIT extends PayaraScenarios {

    private static RedisProcess redis;
    private static PayaraMicro payara;

    @BeforeAll
    static void start() {
        redis = RedisProcess.start();
        Map<String, String> env = new HashMap<>();
        env.put("THROTTLE_REDIS_URI", redis.uri());
        payara = PayaraMicro.start("redis", env);
    }

    @AfterAll
    static void stop() {
        try {
            if (payara != null) {
                payara.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Override
    protected PayaraMicro payara() {
        return payara;
    }

    @Override
    protected String storeKind() {
        return "redis";
    }

    @Override
    protected String expectedStore() {
        return "Redis at " + redis.uri();
    }

    @Test
    public void unlimitedAndBlockedCallsMakeNoRedisCall() {
        unlimitedAndBlockedCallsMakeNoStoreCall(redis.port());
    }

    @Test
    public void theCountsAreInRedis() {
        me().get("/it/fixed").then().statusCode(200);
        String keys = redisReply("KEYS throttle*");
        assertTrue(keys.startsWith("*") && !keys.startsWith("*0"), "no throttle keys in Redis: " + keys);
    }

    /**
     * With the default {@code throttle.on-store-failure=allow}, a dead Redis makes the application serve
     * uncounted: the readiness check says the store is unreachable but stays UP.
     */
    @Test
    public void withRedisDownCallsAreAllowedUncountedAndOnceItIsReachableAgainTheyAreCounted() {
        StoreOutage outage = new StoreOutage(observed(), payara.port(), false);
        redis.kill();
        try {
            outage.whileRedisIsDead();
            // the limit is 3 per hour: uncounted, a fourth call is allowed too, without rate-limit fields
            for (int i = 0; i < 4; i++) {
                me().get("/it/fixed").then().statusCode(200).header("RateLimit", nullValue());
            }
        } finally {
            redis.restart();
        }
        outage.onceReachableCallsAreCounted();
    }

    @Test
    public void callsAllowedForAStoreFailureAreCounted() {
        String bucket = "it.throttle.app.OverrideResource#limited";
        Map<String, Double> before = observed().calls(bucket);
        redis.kill();
        try {
            for (int i = 0; i < 3; i++) {
                me().get("/it/override/limited").then().statusCode(200);
            }
        } finally {
            restartRedisAndAwaitCounting();
        }
        assertEquals(Map.of("store-failure-allowed", 3.0), Observability.changes(before, observed().calls(bucket)));
    }

    /** Starts Redis again (empty) and checks that, once readiness reports it reachable, calls are counted. */
    private void restartRedisAndAwaitCounting() {
        redis.restart();
        new StoreOutage(observed(), payara.port(), false).onceReachableCallsAreCounted();
    }

    private static String redisReply(String command) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", redis.port()), 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            int n = in.read(buf);
            return n <= 0 ? "" : new String(buf, 0, n, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
