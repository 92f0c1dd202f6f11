package io.github.throttle.engine;

import io.github.throttle.Decision;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Weight given back (a target that counts only failures, a call answered without the store): counts are as if the
 * call had never been recorded, never less, and weight that has left its window is not given back again.
 */
public interface GiveBackContract extends StoreFixture {

    @Test
    default void weightGivenBackIsAsIfItHadNeverBeenRecorded() {
        Limit perMinute = Limit.of(5, MINUTE, SECOND);
        String key = freshKey();
        Charge first = charge(SIX_PM, 2, key, perMinute);
        for (int i = 1; i <= 3; i++) {
            assertTrue(charge(SIX_PM + i * SECOND, 1, key, perMinute).allowed());
        }
        assertFalse(charge(SIX_PM + 4 * SECOND, 1, key, perMinute).allowed());
        giveBack(first);
        Decision d = peek(SIX_PM + 5 * SECOND, key, perMinute);
        assertEquals(2, d.remaining());
        // the oldest weight left is now that of 18:00:01, leaving at 18:01:01
        assertEquals(56 * SECOND, d.resetMillis());
        assertTrue(call(SIX_PM + 5 * SECOND, 2, new String[] {key}, perMinute).allowed());
    }

    @Test
    default void givingBackNeverMakesUsageNegativeAndTouchesNoOtherIdentity() {
        Limit perHour = Limit.fixed(10, HOUR);
        String key = freshKey();
        String other = freshKey();
        Charge c = charge(SIX_PM, 3, key, perHour);
        call(SIX_PM, 4, new String[] {other}, perHour);
        store().reset(key).toCompletableFuture().join();
        call(SIX_PM + 1, 1, new String[] {key}, perHour);
        giveBack(c);
        assertEquals(10, peek(SIX_PM + 2, key, perHour).remaining(), "3 given back from the 1 counted: none left");
        assertEquals(6, peek(SIX_PM + 2, other, perHour).remaining());
    }

    @Test
    default void weightThatHasLeftItsWindowIsNotGivenBackAgain() {
        Limit perMinute = Limit.of(10, MINUTE, SECOND);
        String key = freshKey();
        Charge old = charge(SIX_PM, 4, key, perMinute);
        assertTrue(call(SIX_PM + MINUTE + SECOND, 3, new String[] {key}, perMinute).allowed());
        giveBack(old);
        assertEquals(7, peek(SIX_PM + MINUTE + 2 * SECOND, key, perMinute).remaining());
    }

    @Test
    default void aSubBucketEmptiedByAGiveBackIsPassedOverAsTheOldestInARing() {
        emptiedSubBucketIsPassedOver(Limit.of(100, MINUTE, SECOND), SECOND);
    }

    @Test
    default void aSubBucketEmptiedByAGiveBackIsPassedOverAsTheOldestInAChain() {
        // 100 sub-buckets: kept as a chain, not a ring
        emptiedSubBucketIsPassedOver(Limit.of(100, SECOND, 10), 10);
    }

    private void emptiedSubBucketIsPassedOver(Limit l, long p) {
        String key = freshKey();
        call(SIX_PM, 1, new String[] {key}, l);
        Charge middle = charge(SIX_PM + p, 1, key, l);
        call(SIX_PM + 2 * p, 1, new String[] {key}, l);
        giveBack(middle);
        // the first sub-bucket leaves: the oldest holding weight is the third, not the emptied second
        long at = SIX_PM + l.durationMillis() + p / 2;
        Decision d = peek(at, key, l);
        assertEquals(99, d.remaining());
        assertEquals(SIX_PM + 2 * p + l.durationMillis() - at, d.resetMillis());
    }

    @Test
    default void concurrentCallsThatGiveBackOnSuccessNeverCountMoreFailuresThanTheLimit() throws Exception {
        Limit limit = Limit.fixed(5, HOUR);
        String key = freshKey();
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger passed = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        race(64, 20, (t, i) -> {
            Charge c = charge(SIX_PM + i, 1, key, limit);
            if (c.allowed()) {
                passed.incrementAndGet();
                // while its outcome is pending, the call holds its weight; one in three fails and keeps it
                if ((t + i) % 3 == 0) {
                    failures.incrementAndGet();
                } else {
                    giveBack(c);
                }
            }
        }, errors);
        assertTrue(errors.isEmpty(), () -> "errors: " + errors);
        assertEquals(5, failures.get(), "failures fill the limit, never more");
        assertTrue(passed.get() > 5, "successes gave their weight back: " + passed.get());
        assertEquals(0, peek(SIX_PM + 30, key, limit).remaining());
    }

    @Test
    default void aReservationGivenBackNoLongerHoldsBackLaterCallers() {
        Limit perSecond = Limit.fixed(1, SECOND);
        String key = freshKey();
        assertTrue(call(SIX_PM, key, perSecond).allowed());
        Charge reserved = waiting(SIX_PM + 100, 5 * SECOND, 1, key, perSecond);
        assertEquals(900, reserved.reply().delayMillis());
        giveBack(reserved);
        // as if it had never been reserved: the next second is free, and nothing is queued before it
        Charge next = waiting(SIX_PM + 200, 5 * SECOND, 1, key, perSecond);
        assertTrue(next.allowed());
        assertEquals(800, next.reply().delayMillis());
        assertEquals(new Taken.Reserved(perSecond.subBucket(SIX_PM) + 1), next.reply().taken(0));
    }

    @Test
    default void aReservationGivenBackAfterItsSubBucketLeftTheWindowTakesNothingFromLaterWeight() {
        Limit perSecond = Limit.fixed(1, SECOND);
        String key = freshKey();
        assertTrue(call(SIX_PM, key, perSecond).allowed());
        Charge reserved = waiting(SIX_PM + 100, 5 * SECOND, 1, key, perSecond);
        assertTrue(reserved.allowed());
        assertTrue(call(SIX_PM + 2 * SECOND, key, perSecond).allowed());
        giveBack(reserved);
        assertEquals(0, peek(SIX_PM + 2 * SECOND + 1, key, perSecond).remaining());
        assertFalse(call(SIX_PM + 2 * SECOND + 2, key, perSecond).allowed());
    }

    @Test
    default void aLeaseReleasedTwiceFreesOneSeat() {
        Limit twoInFlight = Limit.inFlight(2, MINUTE, null);
        String key = freshKey();
        Charge a = charge(SIX_PM, 1, key, twoInFlight);
        Charge b = charge(SIX_PM + 1, 1, key, twoInFlight);
        assertTrue(a.allowed() && b.allowed());
        assertNotEquals(a.reply().taken(0), b.reply().taken(0), "each seat its own lease");
        release(a);
        release(a);
        assertEquals(1, peek(SIX_PM + 2, key, twoInFlight).remaining(), "b still holds its seat");
        assertTrue(charge(SIX_PM + 3, 1, key, twoInFlight).allowed());
        assertFalse(charge(SIX_PM + 4, 1, key, twoInFlight).allowed());
    }
}
