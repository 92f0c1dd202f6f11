package io.github.throttle.limiter;

import io.github.throttle.Decision;
import io.github.throttle.Caller;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleAdmin;
import io.github.throttle.ThrottleKey;
import io.github.throttle.Throttler.Rate;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Store;
import io.github.throttle.fleet.Administration;
import io.github.throttle.fleet.SharedFleet;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Limits changed while running: overrides and what they are checked against, usage and reset, on one instance
 * and on two sharing a store (two limiters on one embedded store share its settings as two instances share a
 * Redis).
 */
class AdminTest {

    static class Api {
        @Throttle(limit = 5, duration = 60, name = "search", key = ThrottleKey.ApiKey.class)
        @Throttle(limit = 100, duration = 60, name = "search", key = ThrottleKey.ApiKey.class, plan = "pro")
        public void search() { }

        @Throttle(limit = 3, duration = 60, name = "export", key = ThrottleKey.ApiKey.class, inFlight = true)
        public void export() { }

        @Throttle(limit = 5, duration = 60, name = "search", key = ThrottleKey.ApiKey.class)
        public void suggest() { }

        @Throttle(limit = 50, duration = 1, unit = java.time.temporal.ChronoUnit.HOURS, weight = 10, name = "upload")
        public void upload() { }
    }

    /** A bucket counting seats and calls, and two targets of one bucket with different limits of one window. */
    static class Reports {
        @Throttle(limit = 2, duration = 60, name = "report", key = ThrottleKey.ApiKey.class, inFlight = true)
        @Throttle(limit = 10, duration = 60, name = "report", key = ThrottleKey.ApiKey.class)
        public void render() { }

        @Throttle(limit = 4, duration = 60, name = "report", key = ThrottleKey.ApiKey.class)
        public void preview() { }
    }

    /** At the start of a minute, so that fixed windows of a minute start with the test. */
    private final MutableClock clock = new MutableClock(1_699_999_980_000L);

    private static Administration admin(Limiter l) {
        return l.fleet(SharedFleet.class).admin();
    }

    private static Limiter limiter(Store store, InstantSource clock) {
        return limiter(store, clock, TestConfig.of());
    }

    private static Limiter limiter(Store store, InstantSource clock, Config c) {
        Limiter l = Bootstrap.assemble(ThrottleSettings.read(c), c, store, clock, ValidationTest::construct, m -> false,
                Meters.NONE, Optional.empty());
        for (String m : List.of("search", "suggest", "upload", "export")) {
            l.target(Api.class, method(m));
        }
        return l;
    }

    private static Method method(String name) {
        try {
            return Api.class.getDeclaredMethod(name);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Method reportsMethod(String name) {
        try {
            return Reports.class.getDeclaredMethod(name);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Decision decide(Limiter l, Class<?> type, String method, Caller caller) {
        return l.admit(l.target(type, type == Api.class ? method(method) : reportsMethod(method)), caller).toCompletableFuture().join();
    }

    private static boolean allowed(Limiter l, String method, Caller caller) {
        return l.admit(l.target(Api.class, method(method)), caller).toCompletableFuture().join().allowed();
    }

    private static TestCaller key(String key) {
        return new TestCaller("192.0.2.1", null, Map.of("X-API-Key", key));
    }

    private static Rate perMinute(long limit) {
        return Rate.of(limit, Duration.ofMinutes(1));
    }

    @Test
    void everyInvalidOverrideIsNamedAndChangesNothing() {
        try (Limiter l = limiter(new MemoryStore(clock), clock)) {
            List<ThrottleAdmin.BucketLimits> before = admin(l).buckets();
            Map<List<Rate>, String> invalid = Map.ofEntries(
                    Map.entry(List.of(perMinute(0)), "rate 1 (0 per PT1M by PT1M): limit = 0 must be between 1 and"),
                    Map.entry(List.of(perMinute(5), Rate.of(Integer.MAX_VALUE + 1L, Duration.ofHours(1))), "rate 2"),
                    Map.entry(List.of(Rate.of(5, Duration.ZERO)), "duration = 0 must be at least 1 ms"),
                    Map.entry(List.of(Rate.sliding(5, Duration.ofMinutes(1), Duration.ofMinutes(2))), "precision = 120000 must be between 1 ms and the duration"),
                    Map.entry(List.of(Rate.sliding(5, Duration.ofMinutes(1), Duration.ZERO)), "precision = 0"),
                    Map.entry(List.of(Rate.sliding(5, Duration.ofDays(1), Duration.ofMillis(1))), "sub-buckets"),
                    Map.entry(List.of(Rate.inFlight(5, Duration.ofMinutes(1))), "in-flight limits are not overridden"),
                    Map.entry(List.of(perMinute(5), Rate.of(9, Duration.ofSeconds(60))), "rates 1 and 2 count the same window"),
                    Map.entry(List.of(), "at least one rate"));
            invalid.forEach((rates, why) -> {
                String message = assertThrows(IllegalArgumentException.class, () -> admin(l).override("search", "", rates, null)).getMessage();
                assertTrue(message.contains(why), message + " should say " + why);
            });
            String weight = assertThrows(IllegalArgumentException.class,
                    () -> admin(l).override("upload", null, List.of(Rate.of(9, Duration.ofHours(1))), null)).getMessage();
            assertTrue(weight.contains("below the weight 10") && weight.contains("Api#upload"), weight);
            String bucket = assertThrows(IllegalArgumentException.class, () -> admin(l).override("nowhere", "", List.of(perMinute(5)), null)).getMessage();
            assertTrue(bucket.contains("bucket 'nowhere'"), bucket);
            String plan = assertThrows(IllegalArgumentException.class, () -> admin(l).override("search", "gold", List.of(perMinute(5)), null)).getMessage();
            assertTrue(plan.contains("plan 'gold'"), plan);
            String inFlightOnly = assertThrows(IllegalArgumentException.class, () -> admin(l).override("export", "", List.of(perMinute(5)), null)).getMessage();
            assertTrue(inFlightOnly.contains("no rate limit of bucket export"), inFlightOnly);
            assertEquals(before, admin(l).buckets(), "nothing changed");
        }
    }

    private static Map.Entry<String, Executable> refusal(String parameter, Executable call) {
        return Map.entry(parameter, call);
    }

    @Test
    void everyParameterOutOfRangeIsRefusedNamingItAndChangesNothing() {
        try (Limiter l = limiter(new MemoryStore(clock), clock); io.github.throttle.testing.LogCapture log = new io.github.throttle.testing.LogCapture()) {
            admin(l).override("search", "", List.of(perMinute(7)), null);
            assertTrue(allowed(l, "search", key("acme")));
            List<Object> before = List.of(admin(l).assignments(), admin(l).buckets(), admin(l).usage("search", "", "key:acme"));
            String longText = "x".repeat(1_025);
            List<Rate> tooMany = new java.util.ArrayList<>();
            for (int i = 1; i <= 33; i++) {
                tooMany.add(Rate.of(1, Duration.ofMinutes(i)));
            }
            List<Map.Entry<String, Executable>> refused = List.of(
                    refusal("duration", () -> admin(l).assign("key:k", "pro", Duration.ofSeconds(Long.MAX_VALUE), "ops")),
                    refusal("duration", () -> admin(l).assign("key:k", "pro", Duration.ofDays(36_526), "ops")),
                    refusal("identity", () -> admin(l).assign("key:" + longText, "pro", null, "ops")),
                    refusal("identity", () -> admin(l).unassign("user:" + longText, "ops")),
                    refusal("identity", () -> admin(l).usage("search", null, "key:" + longText)),
                    refusal("identity", () -> admin(l).resetEverywhere("search", "key:" + longText, "ops")),
                    refusal("identity", () -> admin(l).unassign("limits||search", "ops")),
                    refusal("plan", () -> admin(l).assign("key:k", longText, null, "ops")),
                    refusal("plan", () -> admin(l).clearOverride("search", longText, "ops")),
                    refusal("bucket", () -> admin(l).clearOverride(longText, "", "ops")),
                    refusal("bucket", () -> admin(l).resetEverywhere(longText, "key:acme", "ops")),
                    refusal("bucket", () -> admin(l).topDenied(longText, 10)),
                    refusal("bucket", () -> admin(l).clearOverride(null, "", "ops")),
                    refusal("limits", () -> admin(l).override("search", "", List.of(Rate.of(5, Duration.ofSeconds(Long.MAX_VALUE))), "ops")),
                    refusal("limits", () -> admin(l).override("search", "", List.of(Rate.sliding(5, Duration.ofDays(36_526), Duration.ofDays(1))), "ops")),
                    refusal("limits", () -> admin(l).override("search", "", tooMany, "ops")),
                    refusal("n", () -> admin(l).topDenied("search", Integer.MAX_VALUE)));
            for (Map.Entry<String, Executable> r : refused) {
                String parameter = r.getKey();
                String message = assertThrows(IllegalArgumentException.class, r.getValue(), parameter).getMessage();
                assertTrue(message.startsWith(parameter + ":") || message.startsWith(parameter + " '"), parameter + ": " + message);
                assertFalse(message.contains(longText), "not echoed: " + message.length() + " characters");
            }
            assertEquals(before, List.of(admin(l).assignments(), admin(l).buckets(), admin(l).usage("search", "", "key:acme")), "nothing changed");
            assertEquals(1, log.at(java.util.logging.Level.INFO).size(), "only the override made first: " + log.all());
        }
    }

    @Test
    void anOverrideReplacesTheLimitsOfItsBucketOnEveryTargetAndKeepsWhatWasUsed() {
        try (Limiter l = limiter(new MemoryStore(clock), clock)) {
            for (int i = 0; i < 3; i++) {
                assertTrue(allowed(l, i % 2 == 0 ? "search" : "suggest", key("acme")));
            }
            admin(l).override("search", "default", List.of(perMinute(2)), null);
            assertFalse(allowed(l, "search", key("acme")), "3 used, 2 allowed now");
            assertFalse(allowed(l, "suggest", key("acme")), "the other target counting in the bucket too");
            assertEquals(List.of(new ThrottleAdmin.Usage("search-1m", 2, 3, 0, 60_000)), admin(l).usage("search", "", "key:acme"),
                    "what was used is kept, and shown above the lowered limit");
            assertTrue(admin(l).buckets().contains(new ThrottleAdmin.BucketLimits("search", "", List.of(perMinute(2)), true)), admin(l).buckets().toString());
            assertTrue(admin(l).buckets().contains(new ThrottleAdmin.BucketLimits("search", "pro",
                    List.of(perMinute(100)), false)), "the plan's limits stay");

            admin(l).override("search", "", List.of(perMinute(4)), null);
            assertTrue(allowed(l, "search", key("acme")), "raised: the denial known before is forgotten");
            assertEquals(4, admin(l).usage("search", null, "key:acme").get(0).used());

            admin(l).clearOverride("search", null, null);
            assertEquals(List.of(new ThrottleAdmin.Usage("search-1m", 5, 4, 1, 60_000)), admin(l).usage("search", "", "key:acme"));
            assertTrue(admin(l).buckets().contains(new ThrottleAdmin.BucketLimits("search", "", List.of(perMinute(5)), false)));
        }
    }

    @Test
    void everyChangeIsLoggedWithWhoMadeIt() {
        try (Limiter l = limiter(new MemoryStore(clock), clock); io.github.throttle.testing.LogCapture log = new io.github.throttle.testing.LogCapture()) {
            admin(l).assign("key:acme", "pro", Duration.ofHours(1), "olga");
            admin(l).override("search", "", List.of(perMinute(5)), null);
            List<String> lines = log.at(java.util.logging.Level.INFO);
            assertEquals(2, lines.size(), String.valueOf(lines));
            assertTrue(lines.get(0).contains(keyInLogs("acme")) && lines.get(0).contains("pro") && lines.get(0).endsWith("(by olga)"), lines.get(0));
            assertTrue(lines.get(1).contains("search") && lines.get(1).endsWith("(by application)"), lines.get(1));
        }
    }

    /** {@code key:} and the first 8 hex digits of the SHA-256 of the key: how logs write an API-key identity. */
    static String keyInLogs(String key) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return "key:" + java.util.HexFormat.of().formatHex(digest).substring(0, 8);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void noLogLineShowsAnApiKeyAndEveryLineWritesItTheSameWay() {
        String secret = "s3cret-api-key";
        MemoryStore store = new MemoryStore(clock);
        try (Limiter l = limiter(store, clock); io.github.throttle.testing.LogCapture log = new io.github.throttle.testing.LogCapture()) {
            admin(l).assign("key:" + secret, "pro", Duration.ofHours(1), "olga");
            admin(l).unassign(" key:" + secret, "olga");
            admin(l).resetEverywhere("search", "key:" + secret, "olga");
            admin(l).assign("user:ann", "blocked", null, "olga");
            // an assignment the store holds but cannot be read, seen when the settings are read next
            store.writeShared(new io.github.throttle.engine.KeyCodec(l.settings().keyPrefix()).sharedKey("settings"), "key:" + secret, "pro|soon");
            admin(l).assign("user:bob", "pro", null, "olga");

            List<String> info = log.at(java.util.logging.Level.INFO);
            assertEquals(5, info.size(), String.valueOf(info));
            for (int i = 0; i < 3; i++) {
                assertTrue(info.get(i).contains(keyInLogs(secret)) && info.get(i).endsWith("(by olga)"), info.get(i));
            }
            assertTrue(info.get(3).contains("user:ann assigned to plan blocked"), "other identities as they are: " + info.get(3));
            String warning = log.only(java.util.logging.Level.WARNING);
            assertTrue(warning.contains("unreadable assignment of " + keyInLogs(secret)), warning);
            assertTrue(log.all().stream().noneMatch(line -> line.contains(secret)), "a log line shows the key: " + log.all());
        }
        Config twice = TestConfig.of("throttle.plans.blocked", "key:" + secret, "throttle.plans.pro", "key:" + secret);
        String startUp = assertThrows(RuntimeException.class, () -> Bootstrap.assemble(ThrottleSettings.read(twice), twice, new MemoryStore(clock),
                clock, ValidationTest::construct, m -> false, Meters.NONE, Optional.empty()).target(Api.class, method("search"))).getMessage();
        assertTrue(startUp.contains("throttle.plans.pro=" + keyInLogs(secret)) && !startUp.contains(secret), "a start-up error, which the server logs: " + startUp);
    }

    /**
     * Usage of seats is what calls in progress hold and when the soonest lease ends; beside them, the rate limits
     * as always. The same on the embedded store and on Redis.
     */
    private void usageOfSeatsAndWindows(Store store, Config config) {
        try (Limiter l = limiter(store, clock, config)) {
            for (String m : List.of("render", "preview")) {
                l.target(Reports.class, reportsMethod(m));
            }
            ThrottleAdmin.Usage noSeat = new ThrottleAdmin.Usage("export-in-flight-1m", 3, 0, 3, 0);
            assertEquals(List.of(noSeat), admin(l).usage("export", null, "key:acme"), "a bucket of seats only, none held");

            io.github.throttle.Decision first = decide(l, Api.class, "export", key("acme"));
            clock.advance(Duration.ofSeconds(10));
            io.github.throttle.Decision second = decide(l, Api.class, "export", key("acme"));
            assertTrue(first.allowed() && second.allowed());
            assertEquals(List.of(new ThrottleAdmin.Usage("export-in-flight-1m", 3, 2, 1, 50_000)), admin(l).usage("export", "", "key:acme"),
                    "two seats held; the first lease ends in 50 s");
            first.ending().release().toCompletableFuture().join();
            assertEquals(List.of(new ThrottleAdmin.Usage("export-in-flight-1m", 3, 1, 2, 60_000)), admin(l).usage("export", "", "key:acme"));
            second.ending().release().toCompletableFuture().join();
            assertEquals(List.of(noSeat), admin(l).usage("export", "", "key:acme"));

            io.github.throttle.Decision rendering = decide(l, Reports.class, "render", key("acme"));
            assertTrue(decide(l, Reports.class, "preview", key("acme")).allowed());
            List<ThrottleAdmin.Usage> report = admin(l).usage("report", null, "key:acme");
            assertEquals(3, report.size(), report.toString());
            assertTrue(report.contains(new ThrottleAdmin.Usage("report-in-flight-1m", 2, 1, 1, 60_000)), report.toString());
            assertTrue(report.contains(new ThrottleAdmin.Usage("report-1m", 10, 2, 8, 50_000)), "calls counted once per window: " + report);
            assertTrue(report.contains(new ThrottleAdmin.Usage("report-1m", 4, 2, 2, 50_000)), "the other limit of that window: " + report);
            rendering.ending().release().toCompletableFuture().join();
        }
    }

    @Test
    void usageOfSeatsIsWhatIsHeldAndWhenTheSoonestLeaseEnds() {
        usageOfSeatsAndWindows(new MemoryStore(clock), TestConfig.of());
    }

    @Test
    void usageOfSeatsIsWhatIsHeldAndWhenTheSoonestLeaseEndsOnRedis() {
        try (RedisProcess redis = RedisProcess.start()) {
            // the test's clock decides on Redis too: calls send their time
            usageOfSeatsAndWindows(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), TestConfig.of("throttle.time-source", "client"));
        }
    }

    /**
     * While Redis fails under {@code on-store-failure=local}, this instance counts on its own, against scaled
     * limits: that is not the usage asked for, and usage says the store could not be asked rather than a figure.
     */
    @Test
    void usageWhileTheStoreFailsUnderLocalCountingSaysSoRatherThanAFigure() {
        try (RedisProcess redis = RedisProcess.start();
             Limiter l = limiter(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock,
                     TestConfig.of("throttle.time-source", "client", "throttle.on-store-failure", "local"))) {
            assertEquals(0, admin(l).usage("search", "", "key:acme").get(0).used(), "asked of Redis");
            redis.kill();
            assertTrue(allowed(l, "search", key("acme")), "counted on this instance");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> admin(l).usage("search", "", "key:acme"));
            assertTrue(e.getMessage().contains("could not be asked for the usage"), e.getMessage());
        }
    }

    @Test
    void usageFollowsThePlanOfAnAssignmentAndChargesNothing() {
        try (Limiter l = limiter(new MemoryStore(clock), clock)) {
            assertTrue(allowed(l, "search", key("acme")));
            admin(l).assign("key:acme", "pro", Duration.ofMinutes(5), null);
            assertTrue(allowed(l, "search", key("acme")));
            List<ThrottleAdmin.Usage> pro = admin(l).usage("search", null, "key:acme");
            assertEquals(List.of(new ThrottleAdmin.Usage("search-1m", 100, 2, 98, 60_000)), pro, "one usage, whichever plan counted it");
            assertEquals(pro, admin(l).usage("search", "pro", "key:acme"), "asking charged nothing");
            assertEquals(5, admin(l).usage("search", "", "key:acme").get(0).limit());
            clock.advance(Duration.ofMinutes(5));
            assertEquals(5, admin(l).usage("search", null, "key:acme").get(0).limit(), "the assignment ended, by the clock");
            assertThrows(IllegalArgumentException.class, () -> admin(l).usage("nowhere", null, "key:acme"));
            assertThrows(IllegalArgumentException.class, () -> admin(l).usage("search", "gold", "key:acme"));
            assertThrows(IllegalArgumentException.class, () -> admin(l).usage("search", null, " "));
        }
    }

    @Test
    void overridesAndResetsMadeOnOneInstanceReachAnotherAndItsDenyCache() {
        MemoryStore store = new MemoryStore(clock);
        try (Limiter a = limiter(store, clock); Limiter b = limiter(store, clock)) {
            for (int i = 0; i < 5; i++) {
                assertTrue(allowed(b, "search", key("k")));
            }
            assertFalse(allowed(b, "search", key("k")), "b remembers this denial");
            admin(a).override("search", "", List.of(perMinute(7)), null);
            await("b applies the raise", () -> allowed(b, "search", key("k")));
            assertEquals(6, admin(a).usage("search", "", "key:k").get(0).used());

            assertTrue(allowed(b, "search", key("k")));
            assertFalse(allowed(b, "search", key("k")), "b remembers this denial too");
            admin(a).resetEverywhere("search", "key:k", "ops");
            await("b forgets the denial and the counts are gone", () -> allowed(b, "search", key("k")));
            assertEquals(1, admin(a).usage("search", "", "key:k").get(0).used());

            try (Limiter later = limiter(store, clock)) {
                assertTrue(admin(later).buckets().contains(new ThrottleAdmin.BucketLimits("search", "", List.of(perMinute(7)), true)),
                        "a new instance starts with the overrides");
            }
        }
    }

    @Test
    void theMostDeniedOfTheLastMinuteOverEveryInstance() {
        MemoryStore store = new MemoryStore(clock);
        try (Limiter a = limiter(store, clock); Limiter b = limiter(store, clock)) {
            for (int i = 0; i < 5; i++) {
                allowed(a, "search", key("heavy"));
                allowed(a, "search", key("light"));
            }
            for (int i = 0; i < 7; i++) {
                allowed(i % 2 == 0 ? a : b, "search", key("heavy"));
            }
            clock.advance(Duration.ofSeconds(20));
            allowed(b, "search", key("light"));
            admin(a).topDenied("search", 10);
            assertEquals(List.of(new ThrottleAdmin.Denied("key:heavy", 7), new ThrottleAdmin.Denied("key:light", 1)),
                    admin(b).topDenied("search", 10), "each instance's denials, deny-cache answers included");
            assertEquals(List.of(new ThrottleAdmin.Denied("key:heavy", 7)), admin(b).topDenied("search", 1));
            assertEquals(List.of(), admin(b).topDenied("suggest", 10));
            clock.advance(Duration.ofSeconds(45));
            assertEquals(List.of(new ThrottleAdmin.Denied("key:light", 1)), admin(b).topDenied("search", 10), "the first slot left the minute");
            assertThrows(IllegalArgumentException.class, () -> admin(b).topDenied("search", 0));
        }
    }

    /** Only a real fault makes this wait long: the product applies a change within a second. */
    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + " not within 30 s");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }
}
