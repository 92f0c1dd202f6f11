package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Instances of the version before reservations and of this one sharing a Redis during a rolling upgrade. The
 * earlier script is kept as a test resource and called with its own arguments. Without reservations they count
 * the same windows in the same fields: decisions made through either, interleaved, are those of one store. With
 * reservations (only once a target of this version waits), an earlier instance does not see them: in a window
 * holding reserved weight it admits at most that weight more than the limit, and never more.
 */
class RollingUpgradeTest {

    private static final long DAY = 86_400_000L;
    private static final List<Limit[]> PLANS = List.of(
            new Limit[] {Limit.fixed(5, 1000)},
            new Limit[] {Limit.of(5, 1000, 200)},
            new Limit[] {Limit.of(3, 300, 100), Limit.of(10, 2000, 500)},
            new Limit[] {Limit.of(4, 3_600_000, 1000)});

    @Test
    void withoutReservationsBothVersionsCountAsOneStore() throws Exception {
        long seed = Long.getLong("throttle.seed", System.nanoTime());
        Random rnd = new Random(seed);
        long now = 1_763_800_000_000L + rnd.nextInt(1_000_000);
        MutableClock clock = new MutableClock(now);
        int earlier = 0;
        int denied = 0;
        try (RedisProcess redis = RedisProcess.start();
             RedisStore current = new RedisStore(io.lettuce.core.RedisURI.create(redis.uri()), Duration.ofSeconds(10), 7 * DAY);
             MemoryStore reference = new MemoryStore(clock, 7 * DAY);
             EarlierScript before = new EarlierScript(redis.uri())) {
            for (int n = 0; n < 3000; n++) {
                now += rnd.nextInt(8) == 0 ? rnd.nextInt(3000) : rnd.nextInt(80);
                clock.set(now);
                Limit[] plan = PLANS.get(rnd.nextInt(PLANS.size()));
                StoreCall.Builder b = StoreCall.builder(now, rnd.nextInt(10) != 0);
                String key = "upgrade:" + rnd.nextInt(3);
                long weight = 1 + rnd.nextInt(2);
                for (int i = 0; i < plan.length; i++) {
                    b.add(key, plan[i], weight, i);
                }
                StoreCall call = b.build();
                StoreReply expected = reference.decideNow(call);
                StoreReply actual;
                if (rnd.nextBoolean()) {
                    earlier++;
                    actual = before.decide(call);
                } else {
                    actual = current.decide(call).toCompletableFuture().join();
                }
                int callNo = n;
                assertEquals(expected, actual, () -> "call " + callNo + " (seed " + seed + ")");
                denied += expected.allowed() ? 0 : 1;
            }
        }
        assertTrue(earlier > 1000 && denied > 100, earlier + " calls through the earlier script, " + denied + " denied (seed " + seed + ")");
    }

    @Test
    void anEarlierInstanceAdmitsAtMostTheReservedWeightMoreInAWindowHoldingReservations() throws Exception {
        Limit fixed = Limit.fixed(5, 1000);
        long t = 1_763_800_000_200L;
        try (RedisProcess redis = RedisProcess.start();
             RedisStore current = new RedisStore(io.lettuce.core.RedisURI.create(redis.uri()), Duration.ofSeconds(10), 7 * DAY);
             EarlierScript before = new EarlierScript(redis.uri())) {
            for (int i = 0; i < 5; i++) {
                assertTrue(current.decide(call(fixed, t, 0)).toCompletableFuture().join().allowed());
            }
            // three callers of this version wait for the next window
            for (int i = 0; i < 3; i++) {
                assertEquals(800, current.decide(call(fixed, t, 2000)).toCompletableFuture().join().delayMillis());
            }
            // in the next window, an earlier instance does not see the 3 reserved: it admits 5, 3 over the limit
            long next = t + 900;
            int admitted = 0;
            for (int i = 0; i < 8; i++) {
                admitted += before.decide(call(fixed, next, 0)).allowed() ? 1 : 0;
            }
            assertEquals(5, admitted);
            // this version sees the window full
            assertFalse(current.decide(call(fixed, next, 0)).toCompletableFuture().join().allowed());
        }
    }

    private static StoreCall call(Limit l, long now, long maxWait) {
        return StoreCall.builder(now, true).maxWait(maxWait).add("upgrade:reserved", l, 1, 0).build();
    }

    /** The script of the version before reservations, called with its arguments: per call now, mode, keys. */
    private static final class EarlierScript implements AutoCloseable {
        private final RedisClient client;
        private final StatefulRedisConnection<String, String> connection;
        private final String sha;

        EarlierScript(String uri) throws IOException {
            client = RedisClient.create(uri);
            connection = client.connect();
            try (InputStream in = RollingUpgradeTest.class.getResourceAsStream("sliding-window-before-reservations.lua")) {
                sha = connection.sync().scriptLoad(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }

        StoreReply decide(StoreCall call) {
            List<String> keys = new ArrayList<>();
            List<String> args = new ArrayList<>(List.of(b36(7 * DAY), "1", b36(call.nowMillis()), SlidingWindowScript.mode(call),
                    b36(call.keyCount())));
            for (int k = 0; k < call.keyCount(); k++) {
                keys.add(call.key(k));
                args.add(b36(k + 1));
                args.add(b36(call.firstPair(k + 1) - call.firstPair(k)));
                for (int p = call.firstPair(k); p < call.firstPair(k + 1); p++) {
                    Limit l = call.limit(p);
                    args.add(SlidingWindowScript.tag(l));
                    args.add(b36(l.limit()));
                    args.add(b36(l.precisionMillis()));
                    args.add(b36(l.subBuckets()));
                    args.add(b36(call.countWeight(p)));
                }
            }
            RedisCommands<String, String> redis = connection.sync();
            List<Object> reply = redis.evalsha(sha, ScriptOutputType.MULTI, keys.toArray(String[]::new), args.toArray(String[]::new));
            return SlidingWindowScript.reply(SlidingWindowScript.replyOf(reply, 0), call);
        }

        private static String b36(long n) {
            return Long.toString(n, 36);
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown();
        }
    }
}
