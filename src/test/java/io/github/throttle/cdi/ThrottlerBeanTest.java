package io.github.throttle.cdi;

import io.github.throttle.Decision;
import io.github.throttle.Throttler.Rate;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.TestConfig;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Programmatic in-flight rates: a seat is held from {@code acquire} to {@code release}, or until its lease ends. */
class ThrottlerBeanTest {

    private final MutableClock clock = new MutableClock(1_790_000_000_000L);
    private final Limiter limiter;
    private final ThrottlerBean throttler = new ThrottlerBean();

    ThrottlerBeanTest() {
        Config c = TestConfig.of("throttle.time-source", "client");
        limiter = Bootstrap.assemble(ThrottleSettings.read(c), c, new MemoryStore(clock), clock, type -> null, m -> false,
                Meters.NONE, Optional.empty());
        throttler.limiter = limiter;
    }

    @AfterEach
    void close() {
        limiter.close();
    }

    @Test
    void aSeatIsHeldFromAcquireToReleaseBesideARateOfCallsMade() {
        Rate oneAtATime = Rate.inFlight(1, Duration.ofMinutes(5));
        Rate tenPerHour = Rate.of(10, Duration.ofHours(1));
        Decision first = throttler.acquire("reports", "user:ann", 1, tenPerHour, oneAtATime);
        assertTrue(first.allowed());
        Decision second = throttler.acquire("reports", "user:ann", 1, tenPerHour, oneAtATime);
        assertFalse(second.allowed());
        assertTrue(second.quotas().get(1).violated() && second.quotas().get(1).inFlight());
        assertEquals(300_000, second.retryAfterMillis(), "until the lease ends");
        assertEquals(9, throttler.count("reports", "user:ann", tenPerHour).remaining(), "a denied call records nothing");
        throttler.release(first);
        throttler.release(first);
        Decision third = throttler.acquire("reports", "user:ann", 1, tenPerHour, oneAtATime);
        assertTrue(third.allowed(), "the released seat is taken again");
        assertEquals(8, third.quotas().get(0).remaining(), "calls made stay counted");
        clock.advanceMillis(300_000);
        assertTrue(throttler.acquire("reports", "user:ann", 1, tenPerHour, oneAtATime).allowed(), "a seat never released is freed by its lease");
    }

    @Test
    void anInFlightRateHasNoPrecisionAndAtMostTenThousandSeats() {
        assertThrows(IllegalArgumentException.class, () -> throttler.acquire("b", "user:x", 1,
                new Rate(2, Duration.ofMinutes(1), Duration.ofSeconds(1), true)));
        assertThrows(IllegalArgumentException.class, () -> throttler.acquire("b", "user:x", 1,
                Rate.inFlight(10_001, Duration.ofMinutes(1))));
    }
}
