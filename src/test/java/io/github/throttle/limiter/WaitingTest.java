package io.github.throttle.limiter;

import io.github.throttle.Outcome;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.github.throttle.metrics.MetricsBackends;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code maxWaitMillis} through the limiter, with an injected clock: a call that does not fit now is reserved at
 * the earliest time it fits and waits exactly that long; one that does not fit within its wait is denied at once;
 * report mode never waits; the deny cache never answers a call that may fit within its wait.
 */
class WaitingTest {

    static class Api {
        @Throttle(limit = 2, duration = 1000, unit = java.time.temporal.ChronoUnit.MILLIS, maxWaitMillis = 1500)
        public void partner() { }

        @Throttle(limit = 2, duration = 1000, precision = 250, unit = java.time.temporal.ChronoUnit.MILLIS, maxWaitMillis = 500)
        public void sliding() { }
    }

    private final MutableClock clock = new MutableClock(1_790_000_000_000L);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Limiter limiter(String... config) {
        Config c = TestConfig.of(config);
        Meters meters = MetricsBackends.select("micrometer", type -> Optional.of(() -> registry)).orElseThrow();
        return Bootstrap.assemble(ThrottleSettings.read(c), c, new MemoryStore(clock), clock, ValidationTest::construct,
                m -> false, meters, Optional.empty());
    }

    private static Decision call(Limiter l, String method) {
        try {
            return l.admit(l.target(Api.class, Api.class.getDeclaredMethod(method)), new TestCaller("10.0.0.1", "ann", Map.of()))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aCallThatDoesNotFitNowWaitsForTheNextWindowAndOneThatCannotFitIsDeniedAtOnce() {
        clock.set(1_790_000_000_200L);
        Limiter l = limiter();
        assertEquals(0, call(l, "partner").waitedMillis());
        assertEquals(0, call(l, "partner").waitedMillis());
        // the window [0, 1000) of this second is full: the next two wait for the next window, 800 ms from now
        for (int i = 0; i < 2; i++) {
            Decision v = call(l, "partner");
            assertTrue(v.allowed());
            assertEquals(Outcome.ALLOWED, v.outcome());
            assertEquals(800, v.waitedMillis());
        }
        // the next window is reserved full too; the one after it starts 1800 ms from now, past the 1500 ms wait
        Decision denied = call(l, "partner");
        assertFalse(denied.allowed());
        assertEquals(1800, denied.retryAfterMillis());
        assertEquals(2, registry.find(Meters.WAITS).timer().count());
        assertEquals(1600, registry.find(Meters.WAITS).timer().totalTime(TimeUnit.MILLISECONDS), 0.001);
    }

    @Test
    void aReservationAheadOfNowKeepsLaterCallsOutOfEveryWindowItBelongsTo() {
        clock.set(1_790_000_000_000L);
        Limiter l = limiter();
        call(l, "sliding");
        clock.set(1_790_000_000_300L);
        call(l, "sliding");
        // full until the first call's sub-bucket leaves at 1000: 550 ms away, beyond the 500 ms wait
        clock.set(1_790_000_000_450L);
        Decision tooFar = call(l, "sliding");
        assertFalse(tooFar.allowed());
        assertEquals(550, tooFar.retryAfterMillis());
        clock.set(1_790_000_000_800L);
        assertEquals(200, call(l, "sliding").waitedMillis());
        // the reservation at 1000 counts in every window holding its sub-bucket: the next call fits only when the
        // second call's weight leaves, at 1250
        assertEquals(450, call(l, "sliding").waitedMillis());
        // then the windows holding 1250 are full until the reservation of 1000 leaves, at 2000: too far
        assertFalse(call(l, "sliding").allowed());
    }

    @Test
    void reportModeNeverWaits() {
        clock.set(1_790_000_000_200L);
        Limiter l = limiter("throttle.mode", "report");
        for (int i = 0; i < 4; i++) {
            Decision v = call(l, "partner");
            assertEquals(0, v.waitedMillis());
        }
        assertEquals(Outcome.WOULD_DENY, call(l, "partner").outcome());
    }

    @Test
    void theDenyCacheNeverAnswersACallThatMayFitWithinItsWait() {
        clock.set(1_790_000_000_200L);
        Limiter l = limiter();
        for (int i = 0; i < 4; i++) {
            call(l, "partner");
        }
        assertFalse(call(l, "partner").allowed());
        // 1800 ms to go when denied: from 300 ms later, the call may fit within its wait of 1500
        clock.set(1_790_000_000_500L);
        Decision v = call(l, "partner");
        assertTrue(v.allowed(), v::toString);
        assertEquals(1500, v.waitedMillis());
    }
}
