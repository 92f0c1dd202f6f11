package io.github.throttle.limiter;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.testing.TestConfig;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.Method;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every invalid annotation or configuration value fails start-up with a message naming the method and the
 * member, or the configuration key.
 */
class ValidationTest {

    static class Api {
        @Throttle(limit = 0)
        public void zeroLimit() { }

        @Throttle(limit = 5, duration = 0)
        public void zeroDuration() { }

        @Throttle(limit = 5, duration = 1, precision = 2, unit = ChronoUnit.MINUTES)
        public void precisionAboveDuration() { }

        @Throttle(limit = 5, precision = -1)
        public void negativePrecision() { }

        @Throttle(limit = 5, weight = 6)
        public void weightAboveLimit() { }

        @Throttle(limit = 5, weight = 0)
        public void zeroWeight() { }

        @Throttle(limit = 5, unit = ChronoUnit.MONTHS)
        public void estimatedUnit() { }

        @Throttle(limit = 5, duration = 1000, unit = ChronoUnit.MICROS)
        public void unitFinerThanMillis() { }

        @Throttle(limit = 5, duration = 30, precision = 1, unit = ChronoUnit.DAYS)
        @Throttle(limit = 5, duration = 2_000_000, precision = 1, unit = ChronoUnit.MILLIS)
        public void tooManySubBucketsInSecondLimit() { }

        @Throttle(limit = 5, duration = 1, unit = ChronoUnit.HOURS)
        @Throttle(limit = 9, duration = 60, unit = ChronoUnit.MINUTES)
        public void sameWindowTwice() { }

        @Throttle(limit = 5, key = Abstract.class)
        public void abstractResolver() { }

        @Throttle(limit = 5, key = NoConstructor.class)
        public void resolverWithoutConstructor() { }

        @Throttle(limit = 3_000_000_000L)
        public void limitTooLarge() { }

        @Throttle(limit = 10, duration = 2_000_001, precision = 2, unit = ChronoUnit.MILLIS)
        public void subBucketsRoundedUpPastTheMaximum() { }

        @Throttle(limit = 5, duration = 1, precision = 1, unit = ChronoUnit.WEEKS, weight = 2)
        @Throttle(limit = 9, duration = 2, unit = ChronoUnit.MINUTES, name = "shared")
        @Throttle(limit = 9, duration = 120, unit = ChronoUnit.SECONDS, name = "shared")
        public void sameWindowOfANamedBucketTwice() { }

        @Throttle(limit = 2, duration = 10, precision = 1, unit = ChronoUnit.MINUTES, inFlight = true)
        public void inFlightWithPrecision() { }

        @Throttle(limit = 10_001, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public void inFlightAboveTenThousand() { }

        @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true, skipSuccessful = true)
        public void inFlightSkippingSuccesses() { }

        @Throttle(limit = 5)
        public void fine() { }

        @Throttle(limit = 5, maxWaitMillis = -1)
        public void negativeWait() { }

        @Throttle(limit = 100, duration = 10, maxWaitMillis = 500)
        @Throttle(limit = 2, duration = 60, inFlight = true)
        public void waitingBesideSeats() { }

        @Throttle(limit = 100, duration = 10, unit = ChronoUnit.MINUTES)
        @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public void seatsBesideARateOfTheSameLength() { }
    }

    abstract static class Abstract implements ThrottleKey {
    }

    static final class NoConstructor implements ThrottleKey {
        NoConstructor(String x) {
        }

        @Override
        public Optional<String> identify(io.github.throttle.Caller caller) {
            return Optional.empty();
        }
    }

    private static final String API = Api.class.getName();

    static Stream<Arguments> invalidAnnotations() {
        return Stream.of(
                arguments("zeroLimit", "limit = 0"),
                arguments("zeroDuration", "duration = 0"),
                arguments("precisionAboveDuration", "precision = 2"),
                arguments("negativePrecision", "precision = -1"),
                arguments("weightAboveLimit", "weight = 6"),
                arguments("zeroWeight", "weight = 0"),
                arguments("estimatedUnit", "unit = Months"),
                arguments("unitFinerThanMillis", "unit = Micros"),
                arguments("tooManySubBucketsInSecondLimit", "(limit 1): precision = 1 makes 2000000 sub-buckets"),
                arguments("sameWindowTwice", "the same window (1h)"),
                arguments("abstractResolver", "key = " + Abstract.class.getName()),
                arguments("resolverWithoutConstructor", "key = " + NoConstructor.class.getName()),
                arguments("limitTooLarge", "limit = 3000000000"),
                arguments("subBucketsRoundedUpPastTheMaximum", "precision = 2 makes 1000001 sub-buckets"),
                arguments("sameWindowOfANamedBucketTwice", "limits 1 and 2 count the same window (2m)"),
                arguments("inFlightWithPrecision", "precision = 1 Minutes must be left unset on an in-flight limit"),
                arguments("inFlightAboveTenThousand", "limit = 10001 must be between 1 and 10000 on an in-flight limit"),
                arguments("inFlightSkippingSuccesses", "skipSuccessful = true has no meaning on an in-flight limit"),
                arguments("negativeWait", "maxWaitMillis = -1 must be 0 (never wait) or positive"),
                arguments("waitingBesideSeats", "maxWaitMillis cannot be combined with an inFlight limit"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidAnnotations")
    void anInvalidAnnotationFailsNamingTheMethodAndMember(String method, String member) {
        String message = planFails(TestConfig.of(), method);
        assertTrue(message.contains(API + "#" + method), message);
        assertTrue(message.contains(member), message);
    }

    static Stream<Arguments> invalidOverrides() {
        return Stream.of(
                arguments(API + "/fine/Throttle/limit", "many", "must be a whole number"),
                arguments(API + "/fine/Throttle/limit", "0", "limit = 0"),
                arguments(API + "/Throttle/duration", "-5", "duration = -5"),
                arguments("Throttle/unit", "FORTNIGHTS", "unit must be one of"),
                arguments(API + "/fine/Throttle/0/weight", "7", "weight = 7"),
                arguments(API + "/fine/Throttle/precision", "1.5", "must be a whole number"),
                arguments(API + "/fine/Throttle/enabled", "maybe", "must be true or false"),
                arguments(API + "/fine/Throttle/key", "com.acme.Missing", "no class com.acme.Missing"),
                arguments(API + "/fine/Throttle/key", "java.lang.String", "is not a concrete"),
                arguments(API + "/fine/Throttle/inFlight", "maybe", "must be true or false"),
                arguments(API + "/fine/Throttle/maxWaitMillis", "-3", "maxWaitMillis = -3"),
                arguments(API + "/fine/Throttle/maxWaitMillis", "soon", "must be a whole number"),
                arguments(API + "/fine/Throttle/leases", "sometimes", "must be true or false or auto or off"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("invalidOverrides")
    void anInvalidOverrideFailsNamingTheKeyAndMethod(String key, String value, String why) {
        String message = planFails(TestConfig.of(key, value), "fine");
        assertTrue(message.contains(key + "=" + value) || message.contains(API + "#fine"), message);
        assertTrue(message.contains("fine"), message);
        assertTrue(message.contains(why), message);
    }

    static Stream<Arguments> invalidSettings() {
        return Stream.of(
                arguments(ThrottleSettings.REDIS_URI, "redis://:secret@", "throttle.redis.uri"),
                arguments(ThrottleSettings.REDIS_URI, "http//nohost", "throttle.redis.uri"),
                arguments(ThrottleSettings.REDIS_TIMEOUT, "soon", "throttle.redis.timeout=soon"),
                arguments(ThrottleSettings.REDIS_TIMEOUT, "0ms", "throttle.redis.timeout"),
                arguments(ThrottleSettings.TRUSTED_PROXIES, "10.0.0.0/33", "10.0.0.0/33"),
                arguments(ThrottleSettings.TRUSTED_PROXIES, "10.0.0.0/8,proxy.example.com", "proxy.example.com"),
                arguments(ThrottleSettings.TIME_SOURCE, "ntp", "throttle.time-source=ntp"),
                arguments(ThrottleSettings.ON_STORE_FAILURE, "retry", "throttle.on-store-failure=retry"),
                arguments(ThrottleSettings.LOCAL_SHARE, "0", "throttle.local.share=0"),
                arguments(ThrottleSettings.LOCAL_SHARE, "1.5", "throttle.local.share=1.5"),
                arguments(ThrottleSettings.LOCAL_SHARE, "a quarter", "throttle.local.share=a quarter"),
                arguments(ThrottleSettings.HEADERS, "draft-7", "throttle.headers=draft-7"),
                arguments(ThrottleSettings.KEY_PREFIX, "rate{limits}", "throttle.key-prefix"),
                arguments(ThrottleSettings.ENABLED, "yes please", "throttle.enabled"),
                arguments(ThrottleSettings.KEY_HEADER, "X Api Key", "throttle.key.header"),
                arguments(ThrottleSettings.ADMIN_ENABLED, "on", "throttle.admin.enabled=on"),
                arguments(ThrottleSettings.ADMIN_ROLE, " ", "throttle.admin.role"),
                arguments(ThrottleSettings.REPLICA_ACKS, "-1", "throttle.redis.replica-acks=-1"),
                arguments(ThrottleSettings.REPLICA_ACKS, "one", "throttle.redis.replica-acks=one"),
                // replicas acknowledge a Redis store's decisions: without throttle.redis.uri there are none
                arguments(ThrottleSettings.REPLICA_ACKS, "1", "throttle.redis.replica-acks=1"),
                arguments(ThrottleSettings.LEASES, "always", "throttle.leases=always"),
                // leases are of a Redis store's quota
                arguments(ThrottleSettings.LEASES, "auto", "throttle.leases=auto"),
                arguments(ThrottleSettings.LEASES_MIN_RATE, "0", "throttle.leases.min-rate=0"),
                arguments(ThrottleSettings.LEASES_MIN_RATE, "fast", "throttle.leases.min-rate=fast"),
                arguments(ThrottleSettings.LEASES_PERIOD, "5ms", "throttle.leases.period=5ms"),
                arguments(ThrottleSettings.LEASES_PERIOD, "2m", "throttle.leases.period=2m"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("invalidSettings")
    void anInvalidSettingFailsNamingItsKey(String key, String value, String named) {
        InvalidThrottleException e = assertThrows(InvalidThrottleException.class, () -> ThrottleSettings.read(TestConfig.of(key, value)));
        assertTrue(e.getMessage().contains(named), e.getMessage());
        assertTrue(!e.getMessage().contains("secret"), "credentials must not leak: " + e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void seatsAreCountedApartFromARateWindowOfTheSameLengthWithAPolicyOfTheirOwn() throws Exception {
        Targets targets = new Targets(TestConfig.of(), new KeyCodec("throttle"), ValidationTest::construct, m -> false);
        Method m = Api.class.getDeclaredMethod("seatsBesideARateOfTheSameLength");
        var limits = targets.of(Api.class, m).limits();
        assertEquals(java.util.List.of("10m", "in-flight-10m"), limits.stream().map(io.github.throttle.engine.Limit::policy).toList());
        assertTrue(limits.get(1).inFlight());
        assertTrue(targets.of(Api.class, m).holdsSeats());
    }

    @org.junit.jupiter.api.Test
    void aRateLimitBecomesAnInFlightOneThroughConfiguration() throws Exception {
        Targets targets = new Targets(TestConfig.of(API + "/fine/Throttle/inFlight", "true", API + "/fine/Throttle/duration", "30"),
                new KeyCodec("throttle"), ValidationTest::construct, m -> false);
        var target = targets.of(Api.class, Api.class.getDeclaredMethod("fine"));
        assertTrue(target.limits().get(0).inFlight());
        assertEquals(30_000, target.limits().get(0).durationMillis());
        assertEquals("in-flight-30s", target.limits().get(0).policy());
    }

    @org.junit.jupiter.api.Test
    void aPropertyThatLooksLikeASettingButIsNoneIsNamedInAWarning() {
        assertEquals(java.util.List.of("throttle.on-store-failur", "throttle.redis.url"),
                ThrottleSettings.unknownKeys(java.util.List.of("throttle.redis.url", "throttle.enabled", "quarkus.http.port",
                        "throttle.on-store-failur", "com.acme.Api/find/Throttle/limit", ThrottleSettings.KEY_HEADER,
                        "throttle.on.store.failure")));
    }

    @org.junit.jupiter.api.Test
    void theApiKeyResolverReadsTheConfiguredHeader() throws Exception {
        Targets targets = new Targets(TestConfig.of(), new KeyCodec("throttle"),
                type -> new ThrottleKey.ApiKey("X-Tenant"), m -> false);
        Method m = ApiKeyed.class.getDeclaredMethod("find");
        var call = TargetTest.storeCall(targets.of(ApiKeyed.class, m), new io.github.throttle.testing.TestCaller("10.0.0.1", null,
                java.util.Map.of("X-Tenant", "acme")), new KeyCodec("throttle"), 0);
        assertTrue(call.key(0).endsWith(":key:acme"), call.key(0));
    }

    static class ApiKeyed {
        @Throttle(limit = 5, key = ThrottleKey.ApiKey.class)
        public void find() { }
    }

    private static String planFails(Config config, String method) {
        Targets targets = new Targets(config, new KeyCodec("throttle"), ValidationTest::construct, m -> false);
        Method m = Arrays.stream(Api.class.getDeclaredMethods()).filter(x -> x.getName().equals(method)).findFirst().orElseThrow();
        return assertThrows(InvalidThrottleException.class, () -> targets.of(Api.class, m)).getMessage();
    }

    static Object construct(Class<?> type) {
        try {
            if (java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
                return null;
            }
            var c = type.getDeclaredConstructor();
            c.setAccessible(true);
            return c.newInstance();
        } catch (NoSuchMethodException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
