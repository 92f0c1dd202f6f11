package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreContract;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Taken;
import io.github.throttle.engine.Took;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class RedisStoreTest extends StoreContract {

    private static RedisProcess redis;
    private static RedisStore store;
    private static final long SLACK = 120_000;
    private static RedisClient client;
    private static StatefulRedisConnection<String, String> connection;
    private static RedisCommands<String, String> commands;

    @BeforeAll
    static void startRedis() {
        redis = RedisProcess.start();
        // the tests' clock is not Redis's: keys live SLACK longer, so that a slow machine never sees a
        // millisecond window's key expire (in real time) between two calls of one scenario
        store = new RedisStore(io.lettuce.core.RedisURI.create(redis.uri()), Duration.ofSeconds(5), SLACK);
        client = RedisClient.create(redis.uri());
        connection = client.connect();
        commands = connection.sync();
    }

    @AfterAll
    static void stopRedis() {
        store.close();
        connection.close();
        client.shutdown();
        redis.close();
    }

    @Override
    public Store store() {
        return store;
    }

    @Test
    void theKeyExpiresAfterTheLongestDuration() {
        String key = freshKey();
        // half a minute in: the newest sub-bucket of the hour (by the minute) leaves the window 59.5 minutes later
        long now = SIX_PM + 30 * SECOND;
        call(now, key, Limit.fixed(10, SECOND), Limit.of(100, HOUR, MINUTE), Limit.fixed(50, MINUTE));
        long ttl = commands.pttl(key);
        long expected = HOUR - 30 * SECOND + SLACK;
        // the expiry counts from the call; PTTL, asked a moment later, is lower by that moment (a minute of margin)
        assertTrue(ttl <= expected && ttl > expected - MINUTE, "pttl " + ttl + ", expected " + expected);
        assertEquals("hash", commands.type(key));
    }

    @Test
    void aKeyHoldingASeatLivesUntilItsLeaseEndsAndTheLastReleaseDropsTheSeatsField() {
        String key = freshKey();
        Limit perSecond = Limit.fixed(10, SECOND);
        Limit twoInFlight = Limit.inFlight(2, HOUR, null);
        Charge c = charge(SIX_PM, 1, key, perSecond, twoInFlight);
        long ttl = commands.pttl(key);
        assertTrue(ttl <= HOUR + SLACK && ttl > HOUR + SLACK - MINUTE, "pttl " + ttl);
        String seats = SlidingWindowScript.tag(twoInFlight);
        assertEquals(seats, Long.toString(HOUR, 36) + "@");
        assertTrue(commands.hexists(key, seats));
        assertEquals(8 + 20, commands.hstrlen(key, seats), "the last lease id, then one lease");
        release(c);
        assertFalse(commands.hexists(key, seats), "no lease left");
        assertTrue(commands.hexists(key, SlidingWindowScript.tag(perSecond)), "the rate window keeps its count");
    }

        @Test
    void aBucketSharedWithAShorterWindowKeepsTheLongerExpiry() {
        String key = freshKey();
        call(SIX_PM, key, Limit.fixed(10, HOUR));
        assertTrue(commands.pttl(key) > HOUR - 10 * SECOND);
        call(SIX_PM + 1, key, Limit.fixed(10, SECOND));
        assertTrue(commands.pttl(key) > HOUR - 10 * SECOND);
    }

    @Test
    void afterScriptFlushTheNextCallSucceeds() {
        String key = freshKey();
        long now = SIX_PM;
        assertTrue(call(now, key, Limit.fixed(2, MINUTE)).allowed());
        assertEquals("OK", commands.scriptFlush());
        assertFalse(commands.scriptExists(SlidingWindowScript.SHA1).get(0));
        Decision d = call(now + 1, key, Limit.fixed(2, MINUTE));
        assertTrue(d.allowed());
        assertEquals(0, d.remaining());
        assertTrue(commands.scriptExists(SlidingWindowScript.SHA1).get(0), "reloaded under the same SHA-1");
    }

    @Test
    void withTheServerClockDecisionsAgreeWithRedisTime() {
        Limit limit = Limit.fixed(1, 10 * SECOND);
        // both calls must fall in the 10 s window between two readings of the server clock: when a window ends
        // between the readings, try again with a new key (ten misses in a row take a stalled machine)
        for (int attempt = 1; ; attempt++) {
            String key = freshKey();
            long before = serverMillis();
            StoreReply r1 = store.decide(StoreCall.builder(-1, true).add(key, limit, 1, 0).build()).toCompletableFuture().join();
            StoreReply r2 = store.decide(StoreCall.builder(-1, true).add(key, limit, 1, 0).build()).toCompletableFuture().join();
            long after = serverMillis();
            if (before / 10_000 != after / 10_000) {
                assertTrue(attempt < 10, "a 10 s window ended between the readings " + attempt + " times in a row");
                continue;
            }
            assertTrue(r1.allowed());
            assertFalse(r2.allowed(), "one call per window of the server clock");
            // the window ends at the next multiple of 10 s of the server clock
            long end = (before / 10_000 + 1) * 10_000;
            long wait = r2.waitMillis(0);
            assertTrue(wait <= end - before && wait >= end - after, "wait " + wait + " for end " + end
                    + " between " + before + " and " + after);
            assertEquals(end / 10_000 - 1, header(key, limit).newest());
            return;
        }
    }

    @Test
    void aRingWidensToFourBytesASlotWhenAWeightNeedsIt() {
        String key = freshKey();
        Limit hour = Limit.of(1_000_000, HOUR, MINUTE);
        assertEquals(999_995, call(SIX_PM, 5, new String[] {key}, hour).remaining());
        assertEquals(929_995, call(SIX_PM + MINUTE, 70_000, new String[] {key}, hour).remaining());
        assertEquals(929_992, call(SIX_PM + 2 * MINUTE, 3, new String[] {key}, hour).remaining());
        String ring = SlidingWindowScript.tag(hour) + "r";
        assertEquals(60 * 4, commands.hstrlen(key, ring + "0") + commands.hstrlen(key, ring + "1")
                + commands.hstrlen(key, ring + "2") + commands.hstrlen(key, ring + "3"));
        // each sub-bucket leaves with its own weight
        assertEquals(929_997, peek(SIX_PM + HOUR, key, hour).remaining());
        assertEquals(999_997, peek(SIX_PM + HOUR + MINUTE, key, hour).remaining());
        assertEquals(1_000_000, peek(SIX_PM + HOUR + 2 * MINUTE, key, hour).remaining());
        // a refund of the wide sub-bucket
        List<Object> recorded = record(SIX_PM + 3 * MINUTE, key, hour, 80_000);
        record(SIX_PM + 4 * MINUTE, key, hour, 1);
        refund(SIX_PM + 3 * MINUTE, key, hour, 80_000, recorded);
        assertEquals(929_991, peek(SIX_PM + 4 * MINUTE, key, hour).remaining());
    }

    @Test
    void aWindowOfMoreThanSixtyFourSubBucketsKeepsOneFieldPerSubBucketHoldingWeight() {
        String key = freshKey();
        Limit hourBySeconds = Limit.of(1000, HOUR, SECOND);
        for (int i = 0; i < 5; i++) {
            call(SIX_PM + i * 7 * SECOND, key, hourBySeconds);
        }
        // the header + 4 closed sub-buckets, however many seconds lie between them
        assertEquals(5, commands.hlen(key).longValue());
        WindowHeader h = header(key, hourBySeconds);
        assertEquals(5, h.counted());
        assertEquals(28, h.newest() - h.oldest());
    }

    @Test
    void aRefundTakesBackWeightFromAnOlderSubBucketOfARingAndOfAChain() {
        for (Limit limit : new Limit[] {Limit.of(100, HOUR, MINUTE), Limit.of(100, HOUR, SECOND)}) {
            String key = freshKey();
            long p = limit.precisionMillis();
            // weight 2, then 3 (to be refunded), then 4 in three sub-buckets, then 5 later
            List<Object> first = record(SIX_PM, key, limit, 2);
            List<Object> second = record(SIX_PM + p, key, limit, 3);
            record(SIX_PM + 2 * p, key, limit, 4);
            refund(SIX_PM + p, key, limit, 3, second);
            assertEquals(94, peek(SIX_PM + 2 * p, key, limit).remaining(), limit.toString());
            // the oldest sub-bucket emptied: the next one holding weight becomes the oldest
            refund(SIX_PM, key, limit, 2, first);
            WindowHeader h = header(key, limit);
            assertEquals(4, h.counted(), limit.toString());
            assertEquals(h.newest(), h.oldest(), limit.toString());
            // after the refunded sub-buckets left the window, only the 4 is still counted until it leaves too
            long third = SIX_PM + 2 * p;
            assertEquals(96, peek(third + HOUR - 1, key, limit).remaining(), limit.toString());
            assertEquals(100, peek(third + HOUR, key, limit).remaining(), limit.toString());
        }
    }

    private static List<Object> record(long now, String key, Limit limit, long weight) {
        StoreCall c = StoreCall.builder(now, true).add(key, limit, weight, 0).build();
        SlidingWindowScript.Run run = new SlidingWindowScript.Run(0).decide(c, SlidingWindowScript.RECORD_AND_TELL_SUB_BUCKETS);
        List<Object> reply = SlidingWindowScript.replyOf(
                commands.evalsha(SlidingWindowScript.SHA1, io.lettuce.core.ScriptOutputType.MULTI, run.keys(), run.args()), 0);
        assertEquals(1L, reply.get(0));
        return reply;
    }

    private static void refund(long now, String key, Limit limit, long weight, List<Object> recorded) {
        StoreCall c = StoreCall.builder(now, true).add(key, limit, weight, 0).build();
        SlidingWindowScript.Run run = new SlidingWindowScript.Run(0).refund(Took.of(c,
                new StoreReply(true, new long[3], new Taken[] {new Taken.Counted((Long) recorded.get(3))})));
        commands.evalsha(SlidingWindowScript.SHA1, io.lettuce.core.ScriptOutputType.MULTI, run.keys(), run.args());
    }

    private static WindowHeader header(String key, Limit limit) {
        try (StatefulRedisConnection<byte[], byte[]> bytes = client.connect(ByteArrayCodec.INSTANCE)) {
            return WindowHeader.parse(bytes.sync().hget(key.getBytes(StandardCharsets.UTF_8),
                    SlidingWindowScript.tag(limit).getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static long serverMillis() {
        List<String> time = commands.time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    @Test
    void oneIdentityWithThreeLimitsIsOneHashOfAFewFields() {
        String key = freshKey();
        long now = SIX_PM;
        for (int i = 0; i < 5; i++) {
            call(now + i * MINUTE, key, Limit.fixed(10, SECOND), Limit.fixed(120, MINUTE), Limit.of(240, HOUR, MINUTE));
        }
        // a header per window + the hour's ring: 60 sub-buckets of 2 bytes, in pieces of 64 bytes
        assertEquals(5, commands.hlen(key).longValue());
        String ring = SlidingWindowScript.tag(Limit.of(240, HOUR, MINUTE)) + "r";
        assertEquals(64, commands.hstrlen(key, ring + "0").longValue());
        assertEquals(56, commands.hstrlen(key, ring + "1").longValue());
        assertEquals(1, commands.keys(key + "*").size());
        WindowHeader hour = header(key, Limit.of(240, HOUR, MINUTE));
        assertEquals(5, hour.counted());
        assertEquals(1, hour.newestWeight());
        assertEquals(hour.newest() - 4, hour.oldest());
        assertEquals((SIX_PM + 4 * MINUTE) / MINUTE, hour.newest());
        assertEquals(1, header(key, Limit.fixed(10, SECOND)).counted());
    }
}
