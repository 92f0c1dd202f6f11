package io.github.throttle.engine;

import org.junit.jupiter.api.Test;

import static io.github.throttle.engine.StoreFixture.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls that may wait ({@link StoreCall.Builder#maxWait}), DESIGN.md "When the answer is not simply yes or no": a
 * call that does not fit now but fits within its wait is reserved in the sub-bucket of the earliest time it fits,
 * not before the latest reservation of its windows, and told the delay and the sub-bucket ({@code -1 - b}); one that
 * does not fit is denied at once and records nothing. Reserved weight counts in every window holding its sub-bucket.
 */
public interface ReservationContract extends StoreFixture {

    @Test
    default void aCallThatFitsWithinItsWaitIsReservedAtTheEarliestTimeItFits() {
        Limit twoPerSecond = Limit.fixed(2, SECOND);
        String key = freshKey();
        long b0 = twoPerSecond.subBucket(SIX_PM);
        StoreReply first = waiting(SIX_PM + 200, SECOND, 1, key, twoPerSecond).reply();
        assertTrue(first.allowed());
        assertEquals(0, first.delayMillis(), "it fits now: it does not wait");
        assertEquals(new Taken.Counted(b0), first.taken(0));
        figures(first, 0, 1, 800, false);
        assertEquals(0, waiting(SIX_PM + 250, SECOND, 1, key, twoPerSecond).reply().delayMillis());

        StoreReply reserved = waiting(SIX_PM + 300, SECOND, 1, key, twoPerSecond).reply();
        assertTrue(reserved.allowed());
        assertEquals(700, reserved.delayMillis(), "the next window starts at 18:00:01");
        assertEquals(new Taken.Reserved(b0 + 1), reserved.taken(0), "reserved in the next sub-bucket");
        // its window (18:00:01-02) holds only itself; the oldest weight counted is the current second's
        figures(reserved, 0, 1, 700, false);

        StoreReply second = waiting(SIX_PM + 500, SECOND, 1, key, twoPerSecond).reply();
        assertTrue(second.allowed());
        assertEquals(500, second.delayMillis());
        assertEquals(new Taken.Reserved(b0 + 1), second.taken(0));
        figures(second, 0, 0, 500, false);

        // the next second is full too: 18:00:02 is past the wait
        StoreReply third = waiting(SIX_PM + 600, SECOND, 1, key, twoPerSecond).reply();
        assertFalse(third.allowed());
        assertEquals(0, third.delayMillis());
        figures(third, 0, 0, 1400, true);

        // a report sees the reserved weight, waits for nothing and records nothing
        StoreReply report = store().decide(StoreCall.builder(SIX_PM + 700, false).maxWait(SECOND)
                .add(key, twoPerSecond, 1, 0).build()).toCompletableFuture().join();
        assertTrue(report.allowed());
        assertEquals(0, report.delayMillis());
        assertEquals(0, report.remaining(0));

        // when its time comes, the reserved weight is counted as any other
        assertFalse(call(SIX_PM + SECOND, key, twoPerSecond).allowed());
        assertEquals(SECOND, call(SIX_PM + SECOND, key, twoPerSecond).retryAfterMillis());
        assertEquals(1, call(SIX_PM + 2 * SECOND, key, twoPerSecond).remaining());
    }

    @Test
    default void aLightCallBehindAHeavyOneWaitsForItsTurn() {
        Limit fourPerSecond = Limit.of(4, SECOND, 250);
        String key = freshKey();
        long b0 = fourPerSecond.subBucket(SIX_PM);
        assertTrue(call(SIX_PM, 1, new String[] {key}, fourPerSecond).allowed());
        assertTrue(call(SIX_PM + 250, 3, new String[] {key}, fourPerSecond).allowed());
        // 3 fit once the 3 of 18:00:00.250 have left, at 18:00:01.250
        StoreReply heavy = waiting(SIX_PM + 300, 2 * SECOND, 3, key, fourPerSecond).reply();
        assertTrue(heavy.allowed());
        assertEquals(950, heavy.delayMillis());
        assertEquals(new Taken.Reserved(b0 + 5), heavy.taken(0));
        figures(heavy, 0, 1, 700, false);
        // 1 would fit at 18:00:01 already, ahead of the heavy call: it is reserved no earlier than it
        StoreReply light = waiting(SIX_PM + 310, 2 * SECOND, 1, key, fourPerSecond).reply();
        assertTrue(light.allowed());
        assertEquals(SIX_PM + 1250, SIX_PM + 310 + light.delayMillis(), "reserved times never decrease");
        assertEquals(new Taken.Reserved(b0 + 5), light.taken(0));
        figures(light, 0, 0, 690, false);
        // at 18:00:01.250 both are counted: the next call waits until their sub-bucket leaves
        StoreReply late = waiting(SIX_PM + 1250, 0, 1, key, fourPerSecond).reply();
        assertFalse(late.allowed());
        figures(late, 0, 0, SECOND, true);
    }

    @Test
    default void aCallThatDoesNotFitWithinItsWaitIsDeniedAtOnceAndReservesNothing() {
        Limit perMinute = Limit.fixed(1, MINUTE);
        String key = freshKey();
        assertTrue(call(SIX_PM, key, perMinute).allowed());
        StoreReply denied = waiting(SIX_PM + SECOND, 10 * SECOND, 1, key, perMinute).reply();
        assertFalse(denied.allowed());
        assertEquals(0, denied.delayMillis());
        figures(denied, 0, 0, 59 * SECOND, true);
        // had the denied call reserved the next minute, this one would come after it
        StoreReply next = waiting(SIX_PM + 2 * SECOND, MINUTE, 1, key, perMinute).reply();
        assertTrue(next.allowed());
        assertEquals(58 * SECOND, next.delayMillis());
        assertEquals(new Taken.Reserved(perMinute.subBucket(SIX_PM) + 1), next.taken(0));
        figures(next, 0, 0, 58 * SECOND, false);
    }

    @Test
    default void aReservationMustFitEveryLimitAndIsRecordedAheadOnlyWhereItsTimeIsInALaterSubBucket() {
        Limit perSecond = Limit.fixed(1, SECOND);
        Limit perTenSeconds = Limit.fixed(2, 10 * SECOND);
        String key = freshKey();
        assertTrue(call(SIX_PM, key, perSecond, perTenSeconds).allowed());
        StoreReply reserved = waiting(SIX_PM + 100, 5 * SECOND, 1, key, perSecond, perTenSeconds).reply();
        assertTrue(reserved.allowed());
        assertEquals(900, reserved.delayMillis());
        assertEquals(new Taken.Reserved(perSecond.subBucket(SIX_PM) + 1), reserved.taken(0), "the next second: reserved");
        assertEquals(new Taken.Counted(perTenSeconds.subBucket(SIX_PM)), reserved.taken(1), "18:00:01 is in the current ten seconds");
        figures(reserved, 0, 0, 900, false);
        figures(reserved, 1, 0, 9900, false);
        // the second after is free, the ten seconds are not: denied, told the longer wait
        Charge denied = waiting(SIX_PM + 200, 5 * SECOND, 1, key, perSecond, perTenSeconds);
        assertFalse(denied.allowed());
        figures(denied.reply(), 0, 0, 1800, true);
        figures(denied.reply(), 1, 0, 9800, true);
        assertEquals(9800, decision(denied, perSecond, perTenSeconds).retryAfterMillis());
        assertTrue(call(SIX_PM + 2 * SECOND, key, perSecond).allowed(), "the denied call reserved nothing");
    }

    @Test
    default void aCallHoldingSeatsIsNeverReserved() {
        Limit perSecond = Limit.fixed(1, SECOND);
        Limit twoInFlight = Limit.inFlight(2, MINUTE, null);
        String key = freshKey();
        assertTrue(charge(SIX_PM, 1, key, perSecond, twoInFlight).allowed());
        Charge denied = waiting(SIX_PM + 100, 5 * SECOND, 1, key, perSecond, twoInFlight);
        assertFalse(denied.allowed(), "no reservation is taken for a call that holds seats");
        assertEquals(0, denied.reply().delayMillis());
        figures(denied.reply(), 0, 0, 900, true);
        figures(denied.reply(), 1, 1, MINUTE - 100, false);
        assertEquals(1, peek(SIX_PM + 200, key, twoInFlight).remaining(), "no seat taken");
        assertTrue(call(SIX_PM + SECOND, key, perSecond).allowed(), "no weight reserved");
    }

    @Test
    default void aLimitOfWeightZeroInAWaitingCallHoldsNoLaterCallerBack() {
        Limit perSecond = Limit.fixed(1, SECOND);
        Limit perTenSeconds = Limit.fixed(1, 10 * SECOND);
        String key = freshKey();
        assertTrue(call(SIX_PM, key, perSecond).allowed());
        assertTrue(call(SIX_PM, key, perTenSeconds).allowed());
        // waits for the ten seconds; takes nothing of the second
        StoreCall free = StoreCall.builder(SIX_PM + 100, true).maxWait(20 * SECOND)
                .add(key, perSecond, 0, 0).add(key, perTenSeconds, 1, 1).build();
        StoreReply reserved = send(free).reply();
        assertTrue(reserved.allowed());
        assertEquals(10 * SECOND - 100, reserved.delayMillis());
        assertEquals(new Taken.Reserved(perTenSeconds.subBucket(SIX_PM) + 1), reserved.taken(1));
        figures(reserved, 1, 0, 9900, false);
        // the second is free again at 18:00:01: a call of it alone is reserved then, not after 18:00:10
        StoreReply next = waiting(SIX_PM + 200, 5 * SECOND, 1, key, perSecond).reply();
        assertTrue(next.allowed(), () -> "weight 0 took a place in the second's queue: " + next);
        assertEquals(800, next.delayMillis());
    }
}
