package it.throttle.scenarios;

import io.github.throttle.testing.RedisProcess;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What only a suite whose application counts in a real Redis can show. Implemented by each runtime's suite on Redis. */
public interface CountsInRedis extends Client {

    /** The Redis the application counts in. */
    RedisProcess redis();

    @Test
    default void theCountsAreInRedis() {
        // keys of other tests' clients come and go with their windows meanwhile: only this client's key is looked at
        me().get("/it/fixed").then().statusCode(200);
        assertTrue(RedisStats.keys(redis().port(), "*:" + client()) >= 1, "this client's count is a key of its own in Redis");
    }

    /** Unlimited and blocked callers cost no store call: Redis runs no script for them, and one for a counted call. */
    @Test
    default void unlimitedAndBlockedCallsMakeNoRedisCall() {
        String priced = "/it/plans/priced";
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long before = RedisStats.scriptCalls(redis().port());
        for (int i = 0; i < 3; i++) {
            me().header("X-API-Key", "unlimited-key").get(priced).then().statusCode(200);
            as("198.18.1." + r.nextInt(1, 255)).get(priced).then().statusCode(200);
            me().header("X-Plan", "blocked").get(priced).then().statusCode(403);
            as("198.18.0." + r.nextInt(1, 255)).get(priced).then().statusCode(403);
        }
        assertEquals(before, RedisStats.scriptCalls(redis().port()), "script calls for unlimited and blocked callers");
        me().get(priced).then().statusCode(200);
        assertEquals(before + 1, RedisStats.scriptCalls(redis().port()), "script calls for one counted call");
    }
}
