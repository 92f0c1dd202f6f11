package it.throttle.payara;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.StoreFailureScenarios;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scenarios on Payara Micro counting in a real Redis, configured by the THROTTLE_REDIS_URI environment variable. */
class OnRedisIT extends PayaraScenarios implements StoreFailureScenarios {

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
    public String storeKind() {
        return "redis";
    }

    @Override
    protected String expectedStore() {
        return "Redis at " + redis.uri() + "/0";
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

    /** The default {@code throttle.on-store-failure=allow}: while Redis is dead, calls pass uncounted. */
    @Override
    public StoreOutage storeOutage() {
        return new StoreOutage(observed(), port(), redis, false);
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
