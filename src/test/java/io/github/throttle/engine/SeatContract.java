package io.github.throttle.engine;

import io.github.throttle.Decision;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In-flight limits ({@link Limit#inFlight}): seats held by calls in progress, each under a lease the store tells,
 * released by a give-back with that lease id or when the lease ends.
 */
public interface SeatContract extends StoreFixture {

    @Test
    default void aSeatIsHeldUntilItsCallEndsThenTakenByTheNext() {
        Limit twoInFlight = Limit.inFlight(2, 10 * MINUTE, null);
        String key = freshKey();
        Charge first = charge(SIX_PM, 1, key, twoInFlight);
        assertEquals(1, decision(first, twoInFlight).remaining());
        Charge second = charge(SIX_PM + SECOND, 1, key, twoInFlight);
        Decision full = decision(second, twoInFlight);
        assertTrue(full.allowed());
        assertEquals(0, full.remaining());
        assertEquals(10 * MINUTE - SECOND, full.resetMillis(), "the soonest lease ends 10 min after the first call");
        Charge third = charge(SIX_PM + 2 * SECOND, 1, key, twoInFlight);
        Decision denied = decision(third, twoInFlight);
        assertFalse(denied.allowed());
        assertEquals(10 * MINUTE - 2 * SECOND, denied.retryAfterMillis(), "until the soonest lease ends");
        assertTrue(denied.quotas().get(0).inFlight());
        release(first);
        assertTrue(charge(SIX_PM + 3 * SECOND, 1, key, twoInFlight).allowed(), "the released seat is taken again");
        assertFalse(charge(SIX_PM + 4 * SECOND, 1, key, twoInFlight).allowed());
    }

    @Test
    default void aSeatNeverReleasedIsFreedWhenItsLeaseEnds() {
        Limit oneInFlight = Limit.inFlight(1, 10 * SECOND, null);
        String key = freshKey();
        assertTrue(charge(SIX_PM, 1, key, oneInFlight).allowed());
        assertFalse(charge(SIX_PM + 10 * SECOND - 1, 1, key, oneInFlight).allowed());
        assertTrue(charge(SIX_PM + 10 * SECOND, 1, key, oneInFlight).allowed(), "the lease ended");
    }

    @Test
    default void aLateReleaseNeverFreesAnotherCallsSeat() {
        Limit oneInFlight = Limit.inFlight(1, 10 * SECOND, null);
        String key = freshKey();
        Charge outlived = charge(SIX_PM, 1, key, oneInFlight);
        Charge next = charge(SIX_PM + 11 * SECOND, 1, key, oneInFlight);
        assertTrue(next.allowed());
        release(outlived);
        release(outlived);
        assertFalse(charge(SIX_PM + 12 * SECOND, 1, key, oneInFlight).allowed(), "the later call still holds its seat");
        release(next);
        assertTrue(charge(SIX_PM + 13 * SECOND, 1, key, oneInFlight).allowed());
    }

    @Test
    default void seatsAndARateWindowOfTheSameLengthAreCountedApart() {
        Limit fivePerTenMinutes = Limit.fixed(5, 10 * MINUTE);
        Limit twoInFlight = Limit.inFlight(2, 10 * MINUTE, null);
        String key = freshKey();
        for (int i = 0; i < 5; i++) {
            Charge c = charge(SIX_PM + i, 1, key, fivePerTenMinutes, twoInFlight);
            Decision d = decision(c, fivePerTenMinutes, twoInFlight);
            assertTrue(d.allowed(), "call " + i);
            assertEquals(4 - i, d.quotas().get(0).remaining());
            assertEquals(1, d.quotas().get(1).remaining());
            release(c);
        }
        Charge sixth = charge(SIX_PM + 10, 1, key, fivePerTenMinutes, twoInFlight);
        Decision d = decision(sixth, fivePerTenMinutes, twoInFlight);
        assertFalse(d.allowed());
        assertTrue(d.quotas().get(0).violated());
        assertFalse(d.quotas().get(1).violated(), "no seat is held");
        assertEquals(2, d.quotas().get(1).remaining());
    }

    @Test
    default void aDeniedCallTakesNoSeatAndRecordsNothing() {
        Limit perMinute = Limit.fixed(10, MINUTE);
        Limit oneInFlight = Limit.inFlight(1, MINUTE, null);
        String[] keys = freshKeys(2);
        String busy = keys[0];
        String idle = keys[1];
        assertTrue(charge(SIX_PM, 1, busy, oneInFlight).allowed());
        StoreCall both = StoreCall.builder(SIX_PM + 1, true)
                .add(busy, perMinute, 1, 0).add(busy, oneInFlight, 1, 1)
                .add(idle, perMinute, 1, 0).add(idle, oneInFlight, 1, 1).build();
        assertFalse(store().decide(both).toCompletableFuture().join().allowed());
        assertEquals(1, peek(SIX_PM + 2, idle, oneInFlight).remaining());
        assertEquals(10, peek(SIX_PM + 2, busy, perMinute).remaining());
    }

    @Test
    default void aHeavyCallWaitsForEnoughLeasesToEndSoonestFirst() {
        Limit fiveInFlight = Limit.inFlight(5, MINUTE, null);
        String key = freshKey();
        charge(SIX_PM, 2, key, fiveInFlight);
        charge(SIX_PM + SECOND, 1, key, fiveInFlight);
        charge(SIX_PM + 2 * SECOND, 2, key, fiveInFlight);
        Decision d = decision(charge(SIX_PM + 3 * SECOND, 3, key, fiveInFlight), fiveInFlight);
        assertFalse(d.allowed());
        // 3 must be freed: 2 at 18:01:00, then 1 at 18:01:01
        assertEquals(MINUTE + SECOND - 3 * SECOND, d.retryAfterMillis());
    }

    @Test
    default void concurrentCallsNeverHoldMoreSeatsThanTheLimitAndGiveThemAllBack() throws Exception {
        Limit twoInFlight = Limit.inFlight(2, HOUR, null);
        String key = freshKey();
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger passed = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        race(32, 20, (t, i) -> {
            Charge c = charge(SIX_PM + i, 1, key, twoInFlight);
            if (c.allowed()) {
                passed.incrementAndGet();
                most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                holding.decrementAndGet();
                release(c);
            }
        }, errors);
        assertTrue(errors.isEmpty(), () -> "errors: " + errors);
        assertTrue(most.get() <= 2, "at most 2 held at once: " + most.get());
        assertTrue(passed.get() > 2, "released seats were taken again: " + passed.get());
        assertEquals(2, peek(SIX_PM + 30, key, twoInFlight).remaining(), "every seat came back");
    }
}
