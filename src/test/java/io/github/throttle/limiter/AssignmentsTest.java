package io.github.throttle.limiter;

import io.github.throttle.Decision;
import io.github.throttle.Outcome;
import io.github.throttle.Caller;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleAdmin;
import io.github.throttle.ThrottleKey;
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

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Identities put on a plan while running: what a call gets, until when, on every instance sharing a store. */
class AssignmentsTest {

    static class Api {
        @Throttle(limit = 2, duration = 60, key = ThrottleKey.ApiKey.class)
        @Throttle(limit = 100, duration = 60, key = ThrottleKey.ApiKey.class, plan = "pro")
        public void search() { }
    }

    /** Long enough that a loaded machine's slow answer is not taken for a store failure, which no test here is about. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static Administration admin(Limiter l) {
        return l.fleet(SharedFleet.class).admin();
    }

    private static Limiter limiter(Store store, InstantSource clock) {
        Config c = TestConfig.of(ThrottleSettings.REDIS_TIMEOUT, TIMEOUT.toMillis() + "ms");
        Limiter l = Bootstrap.assemble(ThrottleSettings.read(c), c, store, clock, ValidationTest::construct, m -> false,
                Meters.NONE, Optional.empty());
        l.target(Api.class, search());
        return l;
    }

    private static java.lang.reflect.Method search() {
        try {
            return Api.class.getDeclaredMethod("search");
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Decision call(Limiter l, Caller caller) {
        return l.admit(l.target(Api.class, search()), caller).toCompletableFuture().join();
    }

    private static TestCaller key(String key) {
        return new TestCaller("192.0.2.1", null, Map.of("X-API-Key", key));
    }

    @Test
    void anAssignmentPutsACallerOnItsPlanUntilItEndsByTheClock() {
        MutableClock clock = new MutableClock(1_790_000_000_000L);
        try (Limiter l = limiter(new MemoryStore(clock), clock)) {
            admin(l).assign("key:acme", "blocked", Duration.ofSeconds(2), null);
            assertTrue(call(l, key("acme")).isBlocked());
            assertFalse(call(l, key("globex")).isBlocked(), "another key");
            assertEquals(Map.of("key:acme", new ThrottleAdmin.Assignment("blocked", clock.instant().plusSeconds(2))), admin(l).assignments());

            clock.advanceMillis(2000);
            assertFalse(call(l, key("acme")).isBlocked(), "the assignment ended");
            assertEquals(Map.of(), admin(l).assignments());

            admin(l).assign("key:acme", "pro", null, null);
            for (int i = 0; i < 5; i++) {
                assertTrue(call(l, key("acme")).allowed(), "pro allows 100");
            }
            assertEquals(Optional.of("pro"), call(l, key("acme")).plan());
            admin(l).unassign("key:acme", null);
            assertFalse(call(l, key("acme")).allowed(), "back on the default: 2 a minute, 6 counted");
        }
    }

    @Test
    void blockedWinsOverUnlimitedAndPlansWhenSeveralAssignmentsMatch() {
        MutableClock clock = new MutableClock(1_790_000_000_000L);
        try (Limiter l = limiter(new MemoryStore(clock), clock)) {
            admin(l).assign("ip:192.0.2.0/24", "unlimited", null, null);
            admin(l).assign("key:acme", "pro", null, null);
            assertEquals(Outcome.UNLIMITED, call(l, key("acme")).outcome(), "unlimited before a plan");
            admin(l).assign("user:ann", "blocked", null, null);
            assertTrue(call(l, new TestCaller("192.0.2.1", "ann", Map.of("X-API-Key", "acme"))).isBlocked());
        }
    }

    @Test
    void aBadAssignmentIsRefusedNamingWhatIsWrongAndChangesNothing() {
        MutableClock clock = new MutableClock(1_790_000_000_000L);
        try (Limiter l = limiter(new MemoryStore(clock), clock)) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> admin(l).assign("acme", "blocked", null, null)).getMessage().contains("identity 'acme'"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> admin(l).assign("ip:10.0.0.0/33", "blocked", null, null)).getMessage().contains("ip:10.0.0.0/33"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> admin(l).assign("key:acme", "gold", null, null)).getMessage().contains("plan 'gold'"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> admin(l).assign("key:acme", "pro", Duration.ZERO, null)).getMessage().contains("duration"));
            assertEquals(Map.of(), admin(l).assignments());
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

    @Test
    void anAssignmentMadeOnOneInstanceIsAppliedByAnotherAndByAnInstanceStartedLater() {
        try (RedisProcess redis = RedisProcess.start()) {
            InstantSource clock = InstantSource.system();
            try (Limiter a = limiter(RedisStores.open(redis.uri(), false, TIMEOUT), clock);
                 Limiter b = limiter(RedisStores.open(redis.uri(), false, TIMEOUT), clock)) {
                // b denies k after two calls (the deny cache remembers it), then k is put on plan pro through a
                assertTrue(call(b, key("k")).allowed());
                assertTrue(call(b, key("k")).allowed());
                assertFalse(call(b, key("k")).allowed());
                admin(a).assign("key:k", "pro", null, null);
                // on plan pro: a call allowed because the store was slow to answer (under load) does not count
                await("b applies the assignment", () -> Optional.of("pro").equals(call(b, key("k")).plan()));
                assertTrue(call(b, key("k")).allowed());

                admin(a).assign("key:abuser", "blocked", Duration.ofHours(1), null);
                await("b blocks", () -> call(b, key("abuser")).isBlocked());
                try (Limiter later = limiter(RedisStores.open(redis.uri(), false, TIMEOUT), clock)) {
                    assertTrue(call(later, key("abuser")).isBlocked(), "a new instance starts with the assignments");
                    assertEquals(admin(a).assignments(), admin(later).assignments());
                }
                admin(b).unassign("key:abuser", null);
                await("a lifts the block", () -> !call(a, key("abuser")).isBlocked());
            }
        }
    }

    @Test
    void whileTheStoreFailsTheLastKnownAssignmentsStayInForce() {
        RedisProcess redis = RedisProcess.start();
        try (Limiter l = limiter(RedisStores.open(redis.uri(), false, TIMEOUT), InstantSource.system())) {
            admin(l).assign("key:abuser", "blocked", null, null);
            redis.kill();
            assertTrue(call(l, key("abuser")).isBlocked());
            String why = assertThrows(IllegalStateException.class, () -> admin(l).assign("key:other", "blocked", null, null)).getMessage();
            assertTrue(why.contains("could not keep the assignment of " + AdminTest.keyInLogs("other")), "as logs write a key: " + why);
            assertTrue(call(l, key("abuser")).isBlocked(), "still blocked after the failed write");
        } finally {
            redis.close();
        }
    }

    /** The test's clock, which can run a task in the middle of the next read of it by one thread. */
    private static final class ClockWithAHook implements InstantSource {
        private final MutableClock time;
        private final AtomicReference<Runnable> hook = new AtomicReference<>();
        private volatile Thread hookedThread;

        ClockWithAHook(MutableClock time) {
            this.time = time;
        }

        /** Runs {@code task} once, when {@code thread} next reads the clock, before the read returns. */
        void onNextRead(Thread thread, Runnable task) {
            hookedThread = thread;
            hook.set(task);
        }

        @Override
        public long millis() {
            if (Thread.currentThread() == hookedThread) {
                Runnable task = hook.getAndSet(null);
                if (task != null) {
                    task.run();
                }
            }
            return time.millis();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }

    @Test
    void aChangeReadWhileACallSeesAnAssignmentEndIsKept() {
        MutableClock time = new MutableClock(1_790_000_000_000L);
        ClockWithAHook clock = new ClockWithAHook(time);
        try (Limiter l = limiter(new MemoryStore(clock), clock)) {
            admin(l).assign("key:trial", "pro", Duration.ofSeconds(1), null);
            time.advance(Duration.ofSeconds(1));
            // the first call after the end rebuilds the assignments; the block is read from the store (on another
            // thread, as the watch of the shared settings reads it) just as that call reads the clock
            clock.onNextRead(Thread.currentThread(),
                    () -> CompletableFuture.runAsync(() -> admin(l).assign("key:abuser", "blocked", null, "ops")).join());
            assertFalse(call(l, key("someone")).isBlocked());
            assertEquals(Map.of("key:abuser", new ThrottleAdmin.Assignment("blocked", null)), admin(l).assignments(),
                    "the block read meanwhile is kept; the trial ended");
            assertTrue(call(l, key("abuser")).isBlocked());
            assertFalse(call(l, key("trial")).isBlocked());
        }
    }

    @Test
    void manyCallsSeeingAnAssignmentEndNeverLoseAChangeMadeMeanwhile() throws Exception {
        MutableClock clock = new MutableClock(1_790_000_000_000L);
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Limiter l = limiter(new MemoryStore(clock), clock)) {
            CyclicBarrier start = new CyclicBarrier(threads + 1);
            for (int round = 0; round < 300; round++) {
                admin(l).assign("key:trial-" + round, "pro", Duration.ofMillis(1), null);
                clock.advanceMillis(1);
                AtomicBoolean changed = new AtomicBoolean();
                List<Future<?>> calls = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    calls.add(pool.submit(() -> {
                        start.await();
                        // calls until the change is in, and one more: each may be the one that sees the trial end
                        boolean last = false;
                        while (!last) {
                            last = changed.get();
                            call(l, key("someone"));
                        }
                        return null;
                    }));
                }
                start.await();
                admin(l).assign("key:abuser-" + round, "blocked", null, null);
                changed.set(true);
                for (Future<?> c : calls) {
                    c.get(30, TimeUnit.SECONDS);
                }
                String abuser = "key:abuser-" + round;
                assertEquals(new ThrottleAdmin.Assignment("blocked", null), admin(l).assignments().get(abuser), "round " + round);
                assertTrue(call(l, key("abuser-" + round)).isBlocked(), "round " + round);
                admin(l).unassign(abuser, null);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
