package io.github.throttle.testing;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The manual clock an application's tests move: window starts, and steps from several threads. */
class ThrottleClockTest {

    private static final Instant MIDNIGHT = Instant.parse("2026-11-28T00:00:00Z");

    @Test
    void advanceToNextMovesToTheNextWholeMultipleSinceTheEpoch() {
        ThrottleClock clock = new ThrottleClock(MIDNIGHT);
        // from a window start, a whole window
        assertEquals(MIDNIGHT.plusSeconds(60), clock.advanceToNext(Duration.ofMinutes(1)));
        clock.advance(Duration.ofSeconds(10));
        // an earlier test moved the clock 10 s: the sixth login still waits a whole minute from the next start
        assertEquals(MIDNIGHT.plusSeconds(120), clock.advanceToNext(Duration.ofMinutes(1)));
        assertEquals(MIDNIGHT.plusSeconds(120), clock.instant());
        clock.advance(Duration.ofMillis(1));
        assertEquals(MIDNIGHT.plusSeconds(3600), clock.advanceToNext(Duration.ofHours(1)));
        assertThrows(IllegalArgumentException.class, () -> clock.advanceToNext(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> clock.advanceToNext(Duration.ofSeconds(-1)));
    }

    @Test
    void advanceToNextRunsTheCallsDueOnTheWay() {
        ThrottleClock clock = new ThrottleClock(MIDNIGHT);
        List<Long> ran = new ArrayList<>();
        clock.after(Duration.ofSeconds(50)).execute(() -> ran.add(clock.millis()));
        clock.after(Duration.ofSeconds(70)).execute(() -> ran.add(clock.millis()));
        clock.advanceToNext(Duration.ofMinutes(1));
        assertEquals(List.of(MIDNIGHT.plusSeconds(50).toEpochMilli()), ran, "due by the window start, at its own time");
        assertEquals(1, clock.waiting());
    }

    @Test
    void stepsFromSeveralThreadsAddUpAndEachDueCallRunsOnceInTimeOrder() throws Exception {
        ThrottleClock clock = new ThrottleClock(MIDNIGHT);
        List<Long> ran = Collections.synchronizedList(new ArrayList<>());
        for (int i = 1; i <= 400; i++) {
            clock.after(Duration.ofMillis(i * 5L)).execute(() -> ran.add(clock.millis()));
        }
        int threads = 8;
        int steps = 250;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    go.await();
                    for (int s = 0; s < steps; s++) {
                        clock.advance(Duration.ofMillis(1));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(MIDNIGHT.toEpochMilli() + threads * steps, clock.millis(), "every step counted");
        List<Long> expected = new ArrayList<>();
        for (int i = 1; i <= 400; i++) {
            expected.add(MIDNIGHT.toEpochMilli() + i * 5L);
        }
        assertEquals(expected, ran, "each due call ran once, at its time, in time order");
        assertEquals(0, clock.waiting());
    }
}
