package io.github.throttle.limiter;

import io.github.throttle.Decision;
import io.github.throttle.Outcome;
import io.github.throttle.Throttle;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Store;
import io.github.throttle.metrics.Meters;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisClusterProcess;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store that stalls: Redis holds every script run ({@code CLIENT PAUSE … WRITE}) while callers are answered by the
 * failure policy, then answers again. Through the limiter over the Redis store, as an application runs it: after the
 * stall, Redis holds exactly what callers were told — nothing of the calls answered without it, for rate windows,
 * reservations and seats, under every failure policy; standalone and Cluster.
 */
class StoreStallTest {

    static class Api {
        @Throttle(limit = 2, duration = 600, inFlight = true)
        public void seats() { }

        @Throttle(limit = 3, duration = 600)
        public void window() { }

        @Throttle(limit = 1, duration = 1000, unit = ChronoUnit.MILLIS, maxWaitMillis = 5000)
        public void waits() { }
    }

    /** A second on the clock's face, 100 ms into it: the time of the calls that may wait. */
    private static final long START = 1_790_000_000_100L;

    private final MutableClock clock = new MutableClock(START);

    private Limiter limiter(String uri, boolean cluster, String policy) {
        Config c = TestConfig.of(ThrottleSettings.REDIS_TIMEOUT, "1s", ThrottleSettings.ON_STORE_FAILURE, policy,
                ThrottleSettings.TIME_SOURCE, "client");
        Store store = RedisStores.open(uri, cluster, Duration.ofSeconds(1));
        return Bootstrap.assemble(ThrottleSettings.read(c), c, store, clock, ValidationTest::construct, m -> false,
                Meters.NONE, Optional.empty());
    }

    private static Decision call(Limiter l, String method) {
        return decide(l, method).join();
    }

    private static CompletableFuture<Decision> decide(Limiter l, String method) {
        try {
            return l.admit(l.target(Api.class, Api.class.getDeclaredMethod(method)), new TestCaller("10.0.0.7", "ann", Map.of()))
                    .toCompletableFuture().orTimeout(30, TimeUnit.SECONDS);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Holds every script run on {@code primaries} while six callers of {@code method} are answered without the store
     * (each by the failure policy, within the timeout), then lets Redis answer again; the clock moves past the
     * failure's open period without leaving the calls' second.
     */
    private void stall(Limiter l, String method, String policy, List<RedisCommands<String, String>> primaries) {
        // WRITE: script runs wait, CLIENT UNPAUSE does not
        primaries.forEach(p -> client(p, "PAUSE", "600000", "WRITE"));
        try {
            List<CompletableFuture<Decision>> stalled = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                stalled.add(decide(l, method));
            }
            for (CompletableFuture<Decision> v : stalled) {
                Outcome result = v.join().outcome();
                assertEquals(switch (policy) {
                    case "allow" -> Outcome.FAILURE_ALLOWED;
                    case "deny" -> Outcome.FAILURE_DENIED;
                    default -> v.join().allowed() ? Outcome.LOCAL_ALLOWED : Outcome.LOCAL_DENIED;
                }, result, "answered by on-store-failure=" + policy);
            }
        } finally {
            primaries.forEach(p -> client(p, "UNPAUSE"));
        }
        clock.advance(Duration.ofMillis(300));
    }

    private static void client(RedisCommands<String, String> redis, String... args) {
        assertEquals("OK", redis.dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).addValues(args)));
    }

    private void afterAStallRedisHoldsWhatCallersWereTold(String uri, boolean cluster, String policy,
                                                          List<RedisCommands<String, String>> primaries) {
        try (Limiter l = limiter(uri, cluster, policy)) {
            // seats: none held by the stalled calls; two for the two calls in progress, and no third
            stall(l, "seats", policy, primaries);
            assertEquals(Outcome.ALLOWED, call(l, "seats").outcome());
            assertEquals(Outcome.ALLOWED, call(l, "seats").outcome());
            assertEquals(Outcome.DENIED, call(l, "seats").outcome(), "two seats, both held by calls told so");

            // a rate window: three of three left for the calls that follow
            stall(l, "window", policy, primaries);
            for (int i = 0; i < 3; i++) {
                assertEquals(Outcome.ALLOWED, call(l, "window").outcome(), "call " + (i + 1) + " of 3");
            }
            assertEquals(Outcome.DENIED, call(l, "window").outcome());

            // reservations: the next second is free for the first caller who waits, not taken by a stalled one
            assertEquals(0, call(l, "waits").waitedMillis());
            stall(l, "waits", policy, primaries);
            Decision next = call(l, "waits");
            assertTrue(next.allowed());
            assertEquals(1000 - (clock.millis() - START) - 100, next.waitedMillis(),
                    "reserved at the start of the next second");
            assertEquals(2000 - (clock.millis() - START) - 100, call(l, "waits").waitedMillis(),
                    "and the one after it at the start of the second after");
        }
    }

    @ParameterizedTest(name = "on-store-failure={0}")
    @ValueSource(strings = {"allow", "deny", "local"})
    void standalone(String policy) {
        try (RedisProcess redis = RedisProcess.start();
             RedisClient admin = RedisClient.create(redis.uri())) {
            afterAStallRedisHoldsWhatCallersWereTold(redis.uri(), false, policy, List.of(admin.connect().sync()));
        }
    }

    @ParameterizedTest(name = "on-store-failure={0}")
    @ValueSource(strings = {"allow"})
    void cluster(String policy) {
        try (RedisClusterProcess cluster = RedisClusterProcess.start()) {
            List<RedisCommands<String, String>> primaries = new ArrayList<>();
            for (int i = 0; i < cluster.size(); i++) {
                primaries.add(cluster.node(i));
            }
            afterAStallRedisHoldsWhatCallersWereTold(cluster.seeds(), true, policy, primaries);
        }
    }
}
