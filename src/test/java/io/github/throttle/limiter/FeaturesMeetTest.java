package io.github.throttle.limiter;

import io.github.throttle.Outcome;
import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Store;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where two features meet, through the limiter over the embedded store and over Redis: two limits that land on one
 * key and one window share one count (never an error); a call a weigher finds free on a seat limit is decided on
 * its other limits, and fails no other call.
 */
class FeaturesMeetTest {

    static class Api {
        /** For an anonymous caller both count {@code ip:<address>} in the same window. */
        @Throttle(limit = 3, duration = 60)
        @Throttle(limit = 100, duration = 60, key = ThrottleKey.ClientAddress.class)
        public void collide() { }

        /** The same, the tighter limit counting only failures: its weight comes back only if both give it back. */
        @Throttle(limit = 3, duration = 60, skipSuccessful = true)
        @Throttle(limit = 100, duration = 60, key = ThrottleKey.ClientAddress.class)
        public void collideSkipping() { }

        /** Heavier on the looser limit: the count records 5, the tighter limit still checks its own weight of 1. */
        @Throttle(limit = 3, duration = 60)
        @Throttle(limit = 12, duration = 60, key = ThrottleKey.ClientAddress.class, weight = 5)
        public void collideWeighted() { }

        @Throttle(limit = 1000, duration = 1, unit = ChronoUnit.HOURS)
        @Throttle(limit = 3, duration = 600, inFlight = true, key = ThrottleKey.ApiKey.class, weigher = FreeWhenAsked.class)
        public void seatsSometimesFree() { }
    }

    /** Weighs a call 0 when it asks for {@code ?free}, else 1. */
    public static class FreeWhenAsked implements ThrottleWeight {
        @Override
        public long weigh(Caller caller) {
            return caller.queryParameter("free").isPresent() ? 0 : 1;
        }
    }

    private static RedisProcess redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    private final MutableClock clock = new MutableClock(1_790_000_000_000L);

    private Limiter limiter(String store) {
        Config c = TestConfig.of(ThrottleSettings.TIME_SOURCE, "client");
        Store s;
        if (store.equals("memory")) {
            s = new MemoryStore(clock);
        } else {
            // each test starts from empty counts
            try (io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(redis.uri())) {
                client.connect().sync().flushall();
            }
            s = RedisStores.open(redis.uri(), false, Duration.ofSeconds(10));
        }
        return Bootstrap.assemble(ThrottleSettings.read(c), c, s, clock, ValidationTest::construct, m -> false, Meters.NONE,
                Optional.empty());
    }

    private static Decision call(Limiter l, String method, Caller caller) {
        try {
            return l.admit(l.target(Api.class, Api.class.getDeclaredMethod(method)), caller).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static final Caller ANONYMOUS = new TestCaller("10.1.2.3", null, Map.of());

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void twoLimitsOnOneKeyAndWindowShareOneCountAndTheSmallerApplies(String store) {
        try (Limiter l = limiter(store)) {
            List<Outcome> results = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                results.add(call(l, "collide", ANONYMOUS).outcome());
            }
            assertEquals(List.of(Outcome.ALLOWED, Outcome.ALLOWED, Outcome.ALLOWED, Outcome.DENIED), results);
            Decision last = call(l, "collide", ANONYMOUS);
            // one policy named once, the tighter one; the looser limit still counted 3
            assertEquals(1, last.quotas().size(), last.quotas().toString());
            assertEquals(3, last.quotas().get(0).limit());
            assertTrue(last.quotas().get(0).violated());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void aSharedCountRecordsTheLargestWeightAndEachLimitChecksItsOwn(String store) {
        try (Limiter l = limiter(store)) {
            // each call records 5 in the shared count: 0 → 5 → 10; the 12-limit refuses a third (15 > 12), while the
            // 3-limit, checking its own weight 1, would refuse from a count of 3 on
            Decision first = call(l, "collideWeighted", ANONYMOUS);
            assertTrue(first.allowed());
            // one policy (both are "1m"), the tighter: 3 - 5, not below 0 (the 12-limit has 7 left)
            assertEquals(1, first.quotas().size(), first.quotas().toString());
            assertEquals(3, first.quotas().get(0).limit());
            assertEquals(0, first.quotas().get(0).remaining());
            assertFalse(call(l, "collideWeighted", ANONYMOUS).allowed(), "count 5: 5 + 1 > 3");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void weightComesBackOnlyIfEveryLimitSharingTheCountGivesItBack(String store) {
        try (Limiter l = limiter(store)) {
            for (int i = 0; i < 3; i++) {
                Decision v = call(l, "collideSkipping", ANONYMOUS);
                assertTrue(v.allowed());
                // a successful call: the skipSuccessful limit would give back, the other does not, so nothing comes back
                v.ending().giveBack().toCompletableFuture().join();
            }
            assertFalse(call(l, "collideSkipping", ANONYMOUS).allowed(), "the count kept all three");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "redis"})
    void aFreeCallOnASeatLimitIsDecidedOnItsOtherLimitsAndHoldsNoSeat(String store) {
        try (Limiter l = limiter(store)) {
            Caller free = new TestCaller("10.1.2.3", null, Map.of("X-API-Key", "k1"), Map.of("free", "yes"));
            Caller paying = new TestCaller("10.1.2.3", null, Map.of("X-API-Key", "k1"));
            for (int i = 0; i < 5; i++) {
                Decision v = call(l, "seatsSometimesFree", free);
                assertEquals(Outcome.ALLOWED, v.outcome(), "decided by the store, not by its failure policy");
                assertFalse(v.isUnmetered(), "with fields");
            }
            // no seat was taken by the free calls: three paying calls in progress fit, a fourth does not
            for (int i = 0; i < 3; i++) {
                assertEquals(Outcome.ALLOWED, call(l, "seatsSometimesFree", paying).outcome());
            }
            assertEquals(Outcome.DENIED, call(l, "seatsSometimesFree", paying).outcome());
            assertEquals(Outcome.ALLOWED, call(l, "seatsSometimesFree", free).outcome(), "a free call still passes");
        }
    }
}
