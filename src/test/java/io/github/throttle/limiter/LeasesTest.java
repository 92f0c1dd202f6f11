package io.github.throttle.limiter;

import io.github.throttle.Decision;
import io.github.throttle.Outcome;
import io.github.throttle.Throttle;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.metrics.Meters;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leased quota of one hot key ({@code throttle.leases=auto}), through the limiter over a real Redis, three instances
 * (each a limiter with a store of its own) calling one key as fast as they can, far above its limit, inside one
 * window: never more than the limit is admitted, at least 95 % of it is, far fewer script runs than calls reach
 * Redis, and once the leases have ended the store holds exactly what was admitted.
 */
class LeasesTest {

    static class Api {
        @Throttle(limit = 3000, duration = 60, name = "hot-fixed", key = io.github.throttle.ThrottleKey.Everyone.class)
        public void fixed() {
        }

        @Throttle(limit = 3000, duration = 60, precision = 5, name = "hot-sliding", key = io.github.throttle.ThrottleKey.Everyone.class)
        public void sliding() {
        }
    }

    private static Limiter limiter(String uri) {
        return limiter(uri, "auto");
    }

    private static Limiter limiter(String uri, String leases) {
        Config c = TestConfig.of(ThrottleSettings.REDIS_URI, uri, ThrottleSettings.LEASES, leases,
                ThrottleSettings.LEASES_MIN_RATE, "50", ThrottleSettings.LEASES_PERIOD, "100ms", ThrottleSettings.REDIS_TIMEOUT, "2s",
                ThrottleSettings.DENY_CACHE_SIZE, "0");
        return Bootstrap.assemble(ThrottleSettings.read(c), c, RedisStores.open(uri, false, Duration.ofSeconds(2)),
                InstantSource.system(), ValidationTest::construct, m -> false, Meters.NONE, Optional.empty());
    }

    private static Decision call(Limiter l, String method) {
        try {
            return l.admit(l.target(Api.class, Api.class.getDeclaredMethod(method)), new TestCaller("10.0.0.7", null, Map.of()))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Script runs Redis made so far. */
    private static long scriptRuns(StatefulRedisConnection<String, String> admin) {
        long runs = 0;
        for (String line : admin.sync().info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                int a = line.indexOf("calls=");
                runs += Long.parseLong(line.substring(a + 6, line.indexOf(',', a)));
            }
        }
        return runs;
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed", "sliding"})
    void threeInstancesOnOneHotKeyNeverAdmitMoreThanTheLimitAndTheStoreEndsWithExactlyWhatWasAdmitted(String method)
            throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             RedisClient client = RedisClient.create(redis.uri());
             StatefulRedisConnection<String, String> admin = client.connect()) {
            List<Limiter> instances = List.of(limiter(redis.uri()), limiter(redis.uri()), limiter(redis.uri()));
            try {
                // a window (a minute, fixed by the server's clock) with at least 25 s left: the load fits in it
                List<String> time = admin.sync().time();
                long serverNow = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
                if (serverNow % 60_000 > 35_000) {
                    TimeUnit.MILLISECONDS.sleep(60_000 - serverNow % 60_000 + 100);
                }
                long before = scriptRuns(admin);
                AtomicLong allowed = new AtomicLong();
                AtomicLong denied = new AtomicLong();
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                List<CompletableFuture<Void>> callers = new ArrayList<>();
                for (Limiter l : instances) {
                    for (int t = 0; t < 2; t++) {
                        callers.add(CompletableFuture.runAsync(() -> {
                            while (System.nanoTime() < until) {
                                Outcome o = call(l, method).outcome();
                                (o == Outcome.ALLOWED ? allowed : denied).incrementAndGet();
                            }
                        }));
                    }
                }
                CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                long runs = scriptRuns(admin) - before;
                System.out.printf("leases, %s: %d allowed, %d denied, %d script runs (%.4f per allowed call)%n", method,
                        allowed.get(), denied.get(), runs, (double) runs / allowed.get());
                assertTrue(allowed.get() <= 3000, "never over the limit: " + allowed.get());
                assertTrue(denied.get() > 0, "the demand was above the limit");
                assertTrue(allowed.get() >= 2850, "at least 95 % of the limit admitted: " + allowed.get());
                // closing an instance ends its leases and gives back what they held: the store counts exactly what was
                // admitted, so an instance without leases gets the rest of the limit, and not one call more
                instances.forEach(Limiter::close);
                try (Limiter after = limiter(redis.uri(), "off")) {
                    long more = 0;
                    while (call(after, method).outcome() == Outcome.ALLOWED) {
                        more++;
                    }
                    assertEquals(3000, allowed.get() + more, "the store held exactly what was admitted");
                }
            } finally {
                instances.forEach(Limiter::close);
            }
        }
    }
}
