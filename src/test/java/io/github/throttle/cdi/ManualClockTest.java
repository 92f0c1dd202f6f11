package io.github.throttle.cdi;

import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleAdmin;
import io.github.throttle.ThrottledException;
import io.github.throttle.Throttler;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.TestConfig;
import io.github.throttle.testing.ThrottleClock;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code throttle.clock=manual} through a real CDI container, as an application's tests use it: the injected
 * {@link ThrottleClock} is the time the embedded store counts by, a call waiting for its turn proceeds when the
 * clock reaches it (never before), {@link ThrottleAdmin#resetAll()} starts the next test from zero, and the setting
 * is refused with a Redis store.
 */
class ManualClockTest {

    private static final Duration AWAIT = Duration.ofSeconds(30);

    @ApplicationScoped
    public static class Logins {
        @Throttle(limit = 5, duration = 1, unit = ChronoUnit.MINUTES)
        public String login() {
            return "welcome";
        }
    }

    /** One export at a time; each runs until the test finishes it. */
    @ApplicationScoped
    public static class Exports {
        private final java.util.concurrent.BlockingQueue<CompletableFuture<String>> running = new java.util.concurrent.LinkedBlockingQueue<>();

        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public CompletableFuture<String> export() {
            CompletableFuture<String> f = new CompletableFuture<>();
            running.add(f);
            return f;
        }

        public CompletableFuture<String> next() throws InterruptedException {
            return running.poll(30, TimeUnit.SECONDS);
        }
    }

    private static CdiContainer manual() {
        return CdiContainer.start(TestConfig.of("throttle.clock", "manual"), Logins.class, Exports.class, ThrottleAdminBean.class,
                ThrottlerBean.class);
    }

    /**
     * The clock stands still across {@code resetAll()}: a seat taken after it never gets the lease of a call still
     * running from before it, whose end would free the new seat (two in flight against a limit of one).
     */
    @Test
    void aCallRunningAcrossAResetNeverFreesALaterCallsSeat() throws Exception {
        try (CdiContainer cdi = manual()) {
            Exports exports = cdi.bean(Exports.class);
            ThrottleAdmin admin = cdi.bean(ThrottleAdmin.class);
            CompletableFuture<String> before = exports.export();
            CompletableFuture<String> beforeRuns = exports.next();
            admin.resetAll();
            CompletableFuture<String> after = exports.export();
            CompletableFuture<String> afterRuns = exports.next();
            assertFalse(after.isCompletedExceptionally(), "the reset forgot the running call's seat");

            beforeRuns.complete("done");
            assertEquals("done", before.get(30, TimeUnit.SECONDS));
            CompletableFuture<String> third = exports.export();
            assertTrue(third.isCompletedExceptionally(), "the call after the reset still holds the one seat");
            afterRuns.complete("done");
            assertEquals("done", after.get(30, TimeUnit.SECONDS));
            assertFalse(exports.export().isCompletedExceptionally(), "its end freed it");
        }
    }

    @Test
    void theSixthLoginInAMinuteIsRefusedAndAMinuteLaterItPasses() {
        try (CdiContainer cdi = manual()) {
            Logins logins = cdi.bean(Logins.class);
            ThrottleClock clock = cdi.bean(ThrottleClock.class);
            for (int i = 0; i < 5; i++) {
                assertEquals("welcome", logins.login());
            }
            ThrottledException refused = assertThrows(ThrottledException.class, logins::login);
            assertEquals(60_000, refused.decision().retryAfterMillis(), "the clock starts a minute and stands still in it");
            clock.advance(Duration.ofSeconds(59));
            assertThrows(ThrottledException.class, logins::login, "a second before the window ends");
            clock.advance(Duration.ofSeconds(1));
            assertEquals("welcome", logins.login());
        }
    }

    @Test
    void aCallWaitingForItsTurnProceedsWhenTheClockReachesItAndNotBefore() throws Exception {
        try (CdiContainer cdi = manual()) {
            ThrottleClock clock = cdi.bean(ThrottleClock.class);
            Throttler throttler = cdi.bean(Throttler.class);
            assertEquals(0, clock.millis() % 86_400_000, "it starts at midnight");
            Throttler.Rate perSecond = Throttler.Rate.of(1, Duration.ofSeconds(1));
            assertEquals(0, throttler.acquire("queue", "user:ann", 1, Duration.ofSeconds(5), perSecond).waitedMillis());
            CompletableFuture<Decision> next = throttler.acquireAsync("queue", "user:ann", 1, Duration.ofSeconds(5), perSecond)
                    .toCompletableFuture();
            assertFalse(next.isDone(), "its turn is the next window");
            assertEquals(1, clock.waiting());
            clock.advance(Duration.ofMillis(999));
            assertFalse(next.isDone(), "a millisecond early");
            clock.advance(Duration.ofMillis(1));
            Decision d = next.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(d.allowed());
            assertEquals(1000, d.waitedMillis());
            assertEquals(0, clock.waiting());
        }
    }

    @Test
    void resetAllForgetsEveryCountAndKeepsAssignments() {
        try (CdiContainer cdi = manual()) {
            Logins logins = cdi.bean(Logins.class);
            ThrottleAdmin admin = cdi.bean(ThrottleAdmin.class);
            admin.assign("key:partner", "unlimited", Duration.ofHours(1));
            for (int i = 0; i < 5; i++) {
                logins.login();
            }
            assertThrows(ThrottledException.class, logins::login);
            admin.resetAll();
            assertEquals("welcome", logins.login(), "the counts are gone");
            assertEquals(1, admin.assignments().size(), "the assignment stays");
        }
    }

    @Test
    void theManualClockIsLoggedAsAWarningAndAMovingClockIsRefusedWhileTheSystemOneIsRead() {
        try (LogCapture log = new LogCapture(); CdiContainer cdi = manual()) {
            cdi.bean(Logins.class).login();
            assertTrue(log.at(Level.WARNING).stream().anyMatch(m -> m.contains("throttle.clock=manual")), log.all().toString());
        }
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Logins.class)) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> cdi.bean(ThrottleClock.class).advance(Duration.ofSeconds(1)));
            assertTrue(messages(e).contains("throttle.clock=manual"), messages(e));
        }
    }

    @Test
    void aManualClockWithARedisStoreFailsStartUpNamingTheKey() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> CdiContainer.start(
                TestConfig.of("throttle.clock", "manual", "throttle.redis.uri", "redis://127.0.0.1:1"), Logins.class).close());
        assertTrue(messages(e).contains("Invalid throttle.clock=manual"), messages(e));
    }

    private static String messages(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c).append(" / ");
        }
        return all.toString();
    }
}
