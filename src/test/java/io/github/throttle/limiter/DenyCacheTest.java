package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.ThrottlePlan;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Limit;
import io.github.throttle.metrics.Meters;
import io.github.throttle.metrics.MetricsBackends;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The deny cache answers only what the store would answer, for as long as it certainly would. */
class DenyCacheTest {

    static class Api {
        @Throttle(limit = 3, duration = 10)
        @Throttle(limit = 8, duration = 60, precision = 5, plan = "pro")
        public void search() { }

        @Throttle(limit = 5, duration = 2, precision = 1, weigher = PlansTest.BatchSize.class, key = ThrottleKey.ApiKey.class)
        @Throttle(limit = 7, duration = 30, weigher = PlansTest.BatchSize.class)
        public void batch() { }

        @Throttle(limit = 2, duration = 60, key = {ThrottleKey.ApiKey.class, ThrottleKey.User.class})
        public void both() { }

        @Throttle(limit = 2, duration = 60, name = "logins", skipSuccessful = true)
        public void login() { }

        @Throttle(limit = 2, duration = 60, name = "logins")
        public void loginCount() { }

        @Throttle(limit = 100, duration = 600)
        @Throttle(limit = 1, duration = 600, inFlight = true)
        public void upload() { }
    }

    private final MutableClock clock = new MutableClock(1_790_000_000_000L);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Limiter limiter(PlansTest.CountingStore store, String... config) {
        Config c = TestConfig.of(config);
        Meters meters = MetricsBackends.select("micrometer", type -> Optional.of(() -> registry)).orElseThrow();
        ThrottlePlan fromHeader = caller -> caller.header("X-Plan");
        Limiter l = Bootstrap.assemble(ThrottleSettings.read(c), c, store, clock, ValidationTest::construct, m -> false, meters,
                Optional.of(fromHeader));
        for (var m : Api.class.getDeclaredMethods()) {
            l.target(Api.class, m);
        }
        return l;
    }

    private static Decision call(Limiter l, String method, Caller caller) {
        try {
            return l.admit(l.target(Api.class, Api.class.getDeclaredMethod(method)), caller).toCompletableFuture().join();
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static TestCaller caller(String key, String user, String plan, long size) {
        Map<String, String> headers = new java.util.HashMap<>();
        headers.put("X-API-Key", key);
        if (plan != null) {
            headers.put("X-Plan", plan);
        }
        return new TestCaller("192.0.2.1", user, headers, Map.of("size", Long.toString(size)));
    }

    @Test
    void randomCallsGetTheSameDecisionsWithAndWithoutTheCacheAndFewerStoreCalls() {
        long seed = Long.getLong("throttle.seed", System.nanoTime());
        Random rnd = new Random(seed);
        PlansTest.CountingStore cachedStore = new PlansTest.CountingStore(clock);
        PlansTest.CountingStore plainStore = new PlansTest.CountingStore(clock);
        Limiter cached = limiter(cachedStore);
        Limiter plain = limiter(plainStore, "throttle.deny-cache.size", "0");
        List<String> methods = List.of("search", "batch", "both", "login", "loginCount");
        List<Limit> rates = List.of(Limit.of(4, 5_000, 1_000), Limit.fixed(9, 60_000));
        int cachedDenials = 0;
        for (int n = 0; n < 30_000; n++) {
            clock.set(clock.millis() + switch (rnd.nextInt(10)) {
                case 0 -> rnd.nextInt(20_000);
                case 1, 2 -> rnd.nextInt(1_000);
                default -> rnd.nextInt(30);
            });
            String context = "call " + n + " (seed " + seed + ")";
            int what = rnd.nextInt(20);
            if (what == 0) {
                String id = "user:u" + rnd.nextInt(3);
                cached.reset("prog", id).toCompletableFuture().join();
                plain.reset("prog", id).toCompletableFuture().join();
            } else if (what < 5) {
                String id = "user:u" + rnd.nextInt(3);
                long w = 1 + rnd.nextInt(3);
                Decision a = cached.acquire("prog", id, w, true, rates, 0).toCompletableFuture().join();
                Decision b = plain.acquire("prog", id, w, true, rates, 0).toCompletableFuture().join();
                assertEquals(b.allowed(), a.allowed(), context);
                if (a.allowed() && rnd.nextInt(5) == 0) {
                    a.ending().giveBack().toCompletableFuture().join();
                    b.ending().giveBack().toCompletableFuture().join();
                }
            } else {
                String method = methods.get(rnd.nextInt(methods.size()));
                TestCaller c = caller("k" + rnd.nextInt(3), rnd.nextBoolean() ? "ann" : null, rnd.nextInt(4) == 0 ? "pro" : null,
                        rnd.nextInt(4));
                Decision a = call(cached, method, c);
                Decision b = call(plain, method, c);
                assertEquals(b.allowed(), a.allowed(), context + " " + method + " " + c);
                if (!a.allowed() && !b.allowed()) {
                    // a remembered denial never tells the client to wait longer than the store does
                    assertTrue(a.retryAfterMillis() <= b.retryAfterMillis(), context);
                }
                if (a.allowed() && method.equals("login") && rnd.nextBoolean()) {
                    a.ending().giveBack().toCompletableFuture().join();
                    b.ending().giveBack().toCompletableFuture().join();
                }
            }
        }
        cachedDenials = plainStore.decided.get() - cachedStore.decided.get();
        // over 200 seeds: 1,142 on average (standard deviation 49), 1,024 at the fewest; the floor sits well below
        assertTrue(cachedDenials > 800, "denials answered from the cache: " + cachedDenials + " (seed " + seed + ")");
    }

    @Test
    void aDenialIsAnsweredLocallyUntilItsExactRetryAfterThenTheStoreIsAskedAgain() {
        PlansTest.CountingStore store = new PlansTest.CountingStore(clock);
        Limiter l = limiter(store);
        TestCaller c = caller("k", null, null, 1);
        for (int i = 0; i < 3; i++) {
            call(l, "search", c);
        }
        clock.set(clock.millis() + 400);
        Decision denied = call(l, "search", c);
        assertFalse(denied.allowed());
        assertEquals(9_600, denied.retryAfterMillis());
        int asked = store.decided.get();
        clock.set(clock.millis() + 9_599);
        Decision local = call(l, "search", c);
        assertFalse(local.allowed());
        assertEquals(1, local.retryAfterMillis(), "the wait counts down");
        assertEquals(0, local.remaining());
        assertEquals(asked, store.decided.get(), "answered without the store");
        clock.set(clock.millis() + 1);
        assertTrue(call(l, "search", c).allowed());
        assertEquals(asked + 1, store.decided.get());
        assertEquals(2, registry.find(Meters.CALLS).tags("bucket", Api.class.getName() + "#search", "plan", "default", "result", "denied")
                        .counter().count(),
                "a locally answered call counts as denied");
    }

    @Test
    void onlyTheSameOrALargerWeightOfTheSameIdentitiesAndPlanIsAnsweredLocally() {
        PlansTest.CountingStore store = new PlansTest.CountingStore(clock);
        Limiter l = limiter(store);
        call(l, "batch", caller("a", null, null, 4));
        assertFalse(call(l, "batch", caller("a", null, null, 3)).allowed());
        int asked = store.decided.get();
        assertFalse(call(l, "batch", caller("a", null, null, 3)).allowed());
        assertFalse(call(l, "batch", caller("a", null, null, 5)).allowed());
        assertEquals(asked, store.decided.get(), "weights 3 and 5 after a denial of 3");
        assertTrue(call(l, "batch", caller("a", null, null, 1)).allowed(), "weight 1 fits: the store is asked");
        // another key: its own 5 per 2 s, and 2 more of the address's 7 per 30 s
        assertTrue(call(l, "batch", caller("b", null, null, 2)).allowed(), "another key");
        // two identities: the denial of (k1, ann) says nothing of (k1, bob)
        call(l, "both", caller("k1", "ann", null, 1));
        call(l, "both", caller("k1", "ann", null, 1));
        assertFalse(call(l, "both", caller("k1", "ann", null, 1)).allowed());
        assertFalse(call(l, "both", caller("k1", "bob", null, 1)).allowed(), "k1 is spent");
        assertTrue(call(l, "both", caller("k2", "bob", null, 1)).allowed());
        // another plan has other limits: the free plan's denial is not the pro plan's
        for (int i = 0; i < 4; i++) {
            call(l, "search", caller("p", null, null, 1));
        }
        assertTrue(call(l, "search", caller("p", null, "pro", 1)).allowed());
    }

    @Test
    void theCacheIsBoundedClearedByResetAndNeverUsedForBucketsThatGiveWeightBack() {
        PlansTest.CountingStore store = new PlansTest.CountingStore(clock);
        Limiter l = limiter(store, "throttle.deny-cache.size", "4");
        List<Decision> denied = new ArrayList<>();
        for (int id = 0; id < 20; id++) {
            l.acquire("prog", "user:" + id, 2, true, List.of(Limit.fixed(2, 60_000)), 0).toCompletableFuture().join();
            denied.add(l.acquire("prog", "user:" + id, 2, true, List.of(Limit.fixed(2, 60_000)), 0).toCompletableFuture().join());
        }
        assertTrue(denied.stream().noneMatch(Decision::allowed));
        // at most 4 of the 20 denials are remembered: asked again, at least 16 go to the store
        int before = store.decided.get();
        for (int id = 0; id < 20; id++) {
            assertFalse(l.acquire("prog", "user:" + id, 2, true, List.of(Limit.fixed(2, 60_000)), 0).toCompletableFuture().join().allowed());
        }
        assertTrue(store.decided.get() - before >= 16, "store calls: " + (store.decided.get() - before));
        // a reset through this instance forgets the denials it makes wrong
        l.acquire("prog", "user:19", 2, true, List.of(Limit.fixed(2, 60_000)), 0).toCompletableFuture().join();
        l.reset("prog", "user:19").toCompletableFuture().join();
        assertTrue(l.acquire("prog", "user:19", 2, true, List.of(Limit.fixed(2, 60_000)), 0).toCompletableFuture().join().allowed());
        // "logins" is counted by a target that gives successes back: every call asks the store
        TestCaller c = caller("k", null, null, 1);
        call(l, "loginCount", c);
        call(l, "loginCount", c);
        int asked = store.decided.get();
        for (int i = 0; i < 5; i++) {
            assertFalse(call(l, "loginCount", c).allowed());
        }
        assertEquals(asked + 5, store.decided.get());
    }

    @Test
    void aDenialByAnInFlightLimitIsNeverRememberedSinceASeatCanComeBackAtAnyMoment() {
        PlansTest.CountingStore store = new PlansTest.CountingStore(clock);
        Limiter l = limiter(store);
        TestCaller c = caller("k", null, null, 1);
        Decision holding = call(l, "upload", c);
        assertTrue(holding.allowed());
        for (int i = 0; i < 5; i++) {
            Decision d = call(l, "upload", c);
            assertFalse(d.allowed());
            assertEquals(600_000, d.retryAfterMillis(), "until the lease of the call in progress ends");
        }
        assertEquals(6, store.decided.get(), "every denial was the store's");
        holding.ending().release().toCompletableFuture().join();
        assertTrue(call(l, "upload", c).allowed(), "the seat came back before the lease ended");
    }

    @Test
    void sizeZeroTurnsTheCacheOff() {
        PlansTest.CountingStore store = new PlansTest.CountingStore(clock);
        Limiter l = limiter(store, "throttle.deny-cache.size", "0");
        TestCaller c = caller("k", null, null, 1);
        for (int i = 0; i < 10; i++) {
            call(l, "search", c);
        }
        assertEquals(10, store.decided.get());
    }
}
