package io.github.throttle.fleet;

import io.github.throttle.Decision;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestCaller;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import static io.github.throttle.fleet.FleetInstances.admin;
import static io.github.throttle.fleet.FleetInstances.call;
import static io.github.throttle.fleet.FleetInstances.fleet;
import static io.github.throttle.fleet.FleetInstances.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ten thousand assignments made in a row on one instance are all in force on another after its next poll. */
class ManyAssignmentsTest {

    static final int ASSIGNMENTS = 10_000;
    private static final String[] PLANS = {"pro", "blocked", "unlimited"};

    /** The plan the {@code i}th assignment gives. */
    static String plan(int i) {
        return PLANS[i % PLANS.length];
    }

    /**
     * Assigns {@code key:k0} to {@code key:k<n-1>} through {@code admin}, one after the other.
     *
     * @param logged whether each change is logged (at INFO, as in production), or only warnings
     */
    static void assignInARow(Administration admin, int n, boolean logged) {
        Logger logger = Logger.getLogger("io.github.throttle");
        Level was = logger.getLevel();
        logger.setLevel(logged ? Level.INFO : Level.WARNING);
        try {
            for (int i = 0; i < n; i++) {
                admin.assign("key:k" + i, plan(i), null, "ops");
            }
        } finally {
            logger.setLevel(was);
        }
    }

    /** Whether a call by {@code key:k<i>} is decided on the plan assigned to it. */
    static void assertOnItsPlan(Limiter l, int i) {
        Decision d = call(l, key("k" + i));
        switch (plan(i)) {
            case "blocked" -> assertTrue(d.isBlocked(), "k" + i + " blocked");
            case "unlimited" -> assertTrue(d.allowed() && Optional.of("unlimited").equals(d.plan()), "k" + i + " unlimited: " + d.plan());
            default -> assertEquals(Optional.of("pro"), d.plan(), "k" + i + " on pro");
        }
    }

    @Test
    void tenThousandAssignmentsInARowAreAllInForceOnAnotherInstanceAfterItsNextPoll() {
        MutableClock clock = new MutableClock(1_790_000_000_000L);
        try (RedisProcess redis = RedisProcess.start();
             Limiter one = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock);
             Limiter two = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock)) {
            assignInARow(admin(one), ASSIGNMENTS, false);
            fleet(two).poll();

            for (int i = ASSIGNMENTS - 30; i < ASSIGNMENTS; i++) {
                assertOnItsPlan(two, i);
                assertOnItsPlan(one, i);
            }
            assertOnItsPlan(two, 0);
            assertEquals(ASSIGNMENTS, admin(two).assignments().size());
            assertEquals(admin(one).assignments(), admin(two).assignments());
            assertFalse(call(two, key("someone-else")).plan().isPresent(), "an identity never assigned keeps the default limits");

            // taken back on one, off on the other at its next poll; the rest stay
            admin(one).unassign("key:k9999", "ops");
            admin(one).assign("user:ann", "blocked", Duration.ofMinutes(1), "ops");
            fleet(two).poll();
            assertFalse(call(two, key("k9999")).plan().isPresent(), "k9999 back on the default limits");
            assertOnItsPlan(two, 9998);
            assertTrue(call(two, new TestCaller("198.51.100.7", "ann", Map.of())).isBlocked());
            clock.advance(Duration.ofMinutes(1));
            assertFalse(call(two, new TestCaller("198.51.100.7", "ann", Map.of())).isBlocked(), "the block ended by the clock");
            assertEquals(ASSIGNMENTS - 1, admin(two).assignments().size());
        }
    }
}
