package io.github.throttle.engine;

import io.github.throttle.Decision;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Counting semantics", for any {@link Store}: what a call of rate limits is told and records, window by
 * window; time is the client clock carried by each call.
 */
public interface WindowContract extends StoreFixture {

    @Test
    default void seedExampleTwentyUsedAtSixOFiveComeBackAtSevenOFive() {
        Limit hourly = Limit.of(240, HOUR, MINUTE);
        String key = freshKey();
        long t605 = SIX_PM + 5 * MINUTE;
        assertTrue(call(t605, 20, new String[] {key}, hourly).allowed());
        Decision d = call(SIX_PM + 30 * MINUTE, 220, new String[] {key}, hourly);
        assertTrue(d.allowed());
        assertEquals(0, d.remaining());
        // 7:04:59: still inside the hour of the 6:05 calls
        Decision denied = call(SIX_PM + HOUR + 4 * MINUTE + 59 * SECOND, key, hourly);
        assertFalse(denied.allowed());
        assertEquals(1000, denied.retryAfterMillis());
        assertEquals(0, denied.remaining());
        // 7:05: the 20 come back
        Decision back = call(SIX_PM + HOUR + 5 * MINUTE, key, hourly);
        assertTrue(back.allowed());
        assertEquals(19, back.remaining());
        // the 220 of 6:30 leave at 7:30
        assertEquals(25 * MINUTE, back.resetMillis());
    }

    @Test
    default void tenPerSecondAndHundredTwentyPerMinuteAndTwoFortyPerHourAreCheckedTogether() {
        Limit perSecond = Limit.fixed(10, SECOND);
        Limit perMinute = Limit.fixed(120, MINUTE);
        Limit perHour = Limit.of(240, HOUR, MINUTE);
        String key = freshKey();
        long t = SIX_PM;
        for (int s = 0; s < 12; s++) {
            for (int i = 0; i < 10; i++) {
                assertTrue(call(t + s * SECOND + i, key, perSecond, perMinute, perHour).allowed(), "second " + s);
            }
            if (s < 11) {
                Decision d = call(t + s * SECOND + 500, key, perSecond, perMinute, perHour);
                assertFalse(d.allowed());
                assertEquals(500, d.retryAfterMillis(), "the second's window ends first");
                assertTrue(d.quotas().get(0).violated());
                assertFalse(d.quotas().get(1).violated());
            }
        }
        // 120 in the first 12 seconds: the minute is spent even though a new second began
        Decision d = call(t + 12 * SECOND, key, perSecond, perMinute, perHour);
        assertFalse(d.allowed());
        assertFalse(d.quotas().get(0).violated());
        assertTrue(d.quotas().get(1).violated());
        assertEquals(48 * SECOND, d.retryAfterMillis());
        assertEquals(10, d.quotas().get(0).remaining());
        assertEquals(0, d.quotas().get(1).remaining());
        assertEquals(120, d.quotas().get(2).remaining());
        // next minute: allowed again, the hour keeps counting
        Decision next = call(t + MINUTE, key, perSecond, perMinute, perHour);
        assertTrue(next.allowed());
        assertEquals(119, next.quotas().get(2).remaining());
        assertEquals(9, next.quotas().get(0).remaining());
    }

    @Test
    default void deniedCallsRecordNothingSoTheOrderOfLimitsDoesNotMatter() {
        Limit perSecond = Limit.fixed(1, SECOND);
        Limit perHour = Limit.fixed(5, HOUR);
        String key = freshKey();
        assertTrue(call(SIX_PM, key, perHour, perSecond).allowed());
        for (int i = 1; i < 100; i++) {
            assertFalse(call(SIX_PM + i, key, perHour, perSecond).allowed());
        }
        // the 99 denied calls did not spend the hour
        for (int s = 1; s <= 4; s++) {
            assertTrue(call(SIX_PM + s * SECOND, key, perHour, perSecond).allowed(), "second " + s);
        }
        assertFalse(call(SIX_PM + 5 * SECOND, key, perHour, perSecond).allowed());
    }

    @Test
    default void aWeightedCallSpendsItsWeightAndIsDeniedWhenItDoesNotFit() {
        Limit limit = Limit.fixed(10, MINUTE);
        String[] key = {freshKey()};
        assertEquals(6, call(SIX_PM, 4, key, limit).remaining());
        assertEquals(2, call(SIX_PM + 1, 4, key, limit).remaining());
        Decision d = call(SIX_PM + 2, 4, key, limit);
        assertFalse(d.allowed());
        assertEquals(2, d.remaining());
        assertEquals(MINUTE - 2, d.retryAfterMillis());
        assertTrue(call(SIX_PM + 3, 2, key, limit).allowed());
        assertEquals(0, call(SIX_PM + 4, 0, key, limit).remaining());
    }

    @Test
    default void aFixedWindowReturnsEverythingAtItsEndASlidingOneBlockByBlock() {
        Limit fixed = Limit.fixed(10, MINUTE);
        Limit sliding = Limit.of(10, MINUTE, 10 * SECOND);
        String a = freshKey();
        String b = freshKey();
        long t059 = SIX_PM + 59 * SECOND;
        assertTrue(call(t059, 10, new String[] {a}, fixed).allowed());
        assertTrue(call(t059, 10, new String[] {b}, sliding).allowed());
        assertTrue(call(SIX_PM + MINUTE, a, fixed).allowed(), "fixed: a new minute is a new window");
        Decision d = call(SIX_PM + MINUTE, b, sliding);
        assertFalse(d.allowed(), "sliding: the calls of 0:59 still count");
        assertEquals(50 * SECOND, d.retryAfterMillis(), "the 0:50-1:00 sub-bucket leaves at 1:50");
        assertFalse(call(SIX_PM + MINUTE + 49_999, b, sliding).allowed());
        assertTrue(call(SIX_PM + MINUTE + 50 * SECOND, b, sliding).allowed());
    }

    @Test
    default void precisionEqualToDurationIsAFixedWindow() {
        Limit explicit = Limit.of(3, 5 * SECOND, 5 * SECOND);
        Limit fixed = Limit.fixed(3, 5 * SECOND);
        assertTrue(explicit.sameWindow(fixed));
        String key = freshKey();
        long start = SIX_PM + 2 * SECOND;
        for (int i = 0; i < 3; i++) {
            assertTrue(call(start + i, key, explicit).allowed());
        }
        Decision d = call(start + 3, key, explicit);
        assertEquals(5 * SECOND - 2 * SECOND - 3, d.retryAfterMillis());
        assertTrue(call(SIX_PM + 5 * SECOND, key, fixed).allowed());
    }

    @Test
    default void windowEdgesBelongToTheLaterSubBucket() {
        Limit limit = Limit.of(2, 3 * SECOND, SECOND);
        String key = freshKey();
        assertTrue(call(SIX_PM + 999, key, limit).allowed());          // block 0
        assertTrue(call(SIX_PM + 1000, key, limit).allowed());         // block 1
        Decision d = call(SIX_PM + 2999, key, limit);
        assertFalse(d.allowed());
        assertEquals(1, d.retryAfterMillis(), "block 0 leaves at 3.000 s");
        Decision at3 = call(SIX_PM + 3000, key, limit);
        assertTrue(at3.allowed());
        assertEquals(0, at3.remaining());
        assertEquals(1000, at3.resetMillis(), "block 1 leaves at 4.000 s");
    }

    @Test
    default void retryAfterWaitsUntilEnoughOldWeightHasLeft() {
        Limit limit = Limit.of(10, 10 * SECOND, SECOND);
        String[] key = {freshKey()};
        call(SIX_PM, 1, key, limit);               // leaves at 10 s
        call(SIX_PM + 2 * SECOND, 2, key, limit);  // leaves at 12 s
        call(SIX_PM + 5 * SECOND, 3, key, limit);  // leaves at 15 s
        call(SIX_PM + 7 * SECOND, 4, key, limit);  // leaves at 17 s; window full
        long at = SIX_PM + 8 * SECOND + 250;
        assertEquals(1750, call(at, 1, key, limit).retryAfterMillis());
        assertEquals(3750, call(at, 2, key, limit).retryAfterMillis());
        assertEquals(3750, call(at, 3, key, limit).retryAfterMillis());
        assertEquals(6750, call(at, 4, key, limit).retryAfterMillis());
        assertEquals(8750, call(at, 10, key, limit).retryAfterMillis());
        Decision d = call(at, 4, key, limit);
        assertEquals(0, d.remaining());
        assertEquals(6750, d.retryAfterMillis());
        assertEquals(0, peek(at, key[0], limit).remaining());
        assertEquals(1750, peek(at, key[0], limit).resetMillis(), "a report tells when weight next comes back");
    }

    @Test
    default void withSeveralIdentitiesOneOverItsLimitDeniesAndNothingIsRecordedForTheOthers() {
        Limit limit = Limit.fixed(3, MINUTE);
        String[] keys = freshKeys(2);
        String ip = keys[0];
        String user = keys[1];
        String[] both = {ip, user};
        for (int i = 0; i < 3; i++) {
            assertTrue(call(SIX_PM + i, 1, new String[] {user}, limit).allowed());
        }
        for (int i = 0; i < 5; i++) {
            Decision d = call(SIX_PM + 10 + i, 1, both, limit);
            assertFalse(d.allowed());
            assertEquals(0, d.remaining());
        }
        // the address alone still has all of its quota
        assertEquals(3, peek(SIX_PM + 20, ip, limit).remaining());
        assertEquals(2, call(SIX_PM + 21, ip, limit).remaining());
    }

    @Test
    default void aReportRecordsNothing() {
        Limit limit = Limit.fixed(2, SECOND);
        String key = freshKey();
        for (int i = 0; i < 5; i++) {
            Decision d = peek(SIX_PM + i, key, limit);
            assertTrue(d.allowed());
            assertEquals(2, d.remaining());
        }
        call(SIX_PM + 10, key, limit);
        assertEquals(1, peek(SIX_PM + 11, key, limit).remaining());
    }

    @Test
    default void whenTheClockGoesBackCallsCountInTheNewestSubBucketAndNoQuotaIsWidened() {
        Limit limit = Limit.of(3, 10 * SECOND, SECOND);
        String key = freshKey();
        assertTrue(call(SIX_PM + 20 * SECOND, key, limit).allowed());
        // the clock steps back 15 s: the call is counted as if at 20 s, not in a sub-bucket of the past
        assertTrue(call(SIX_PM + 5 * SECOND, key, limit).allowed());
        assertTrue(call(SIX_PM + 6 * SECOND, key, limit).allowed());
        Decision d = call(SIX_PM + 7 * SECOND, key, limit);
        assertFalse(d.allowed());
        assertEquals(10 * SECOND, d.retryAfterMillis(), "counted from the start of the newest sub-bucket");
        // once the clock is past again, the weight leaves as if it had been recorded at 20 s
        assertFalse(call(SIX_PM + 29_999, key, limit).allowed());
        assertTrue(call(SIX_PM + 30 * SECOND, key, limit).allowed());
    }

    @Test
    default void afterAnIdleGapAnHourBySecondsStartsEmpty() {
        Limit limit = Limit.of(3600, HOUR, SECOND);
        String key = freshKey();
        for (int s = 0; s < 600; s++) {
            assertTrue(call(SIX_PM + s * SECOND, key, limit).allowed());
        }
        assertEquals(2999, call(SIX_PM + 700 * SECOND, key, limit).remaining());
        // half an hour later, the first 300 s have left
        assertEquals(3299, call(SIX_PM + HOUR + 300 * SECOND, key, limit).remaining());
        // five hours idle
        Decision d = call(SIX_PM + 6 * HOUR, key, limit);
        assertEquals(3599, d.remaining());
        assertEquals(HOUR, d.resetMillis());
    }

    @Test
    default void millisecondWindowsWork() {
        Limit limit = Limit.of(5, 10, 2);
        String key = freshKey();
        for (int i = 0; i < 5; i++) {
            assertTrue(call(SIX_PM + i, key, limit).allowed());
        }
        Decision d = call(SIX_PM + 5, key, limit);
        assertFalse(d.allowed());
        assertEquals(5, d.retryAfterMillis(), "block 0 (0-2 ms) leaves at 10 ms");
        assertTrue(call(SIX_PM + 10, key, limit).allowed());
    }

    @Test
    default void limitsOfOneBucketAreKeptApartByWindow() {
        Limit a = Limit.fixed(2, SECOND);
        Limit b = Limit.fixed(2, MINUTE);
        String key = freshKey();
        call(SIX_PM, key, a);
        call(SIX_PM + 1, key, a);
        assertEquals(1, call(SIX_PM + 2, key, b).remaining());
        assertFalse(call(SIX_PM + 3, key, a).allowed());
    }

    @Test
    default void sixtyFourThreadsRacingOnOneIdentityGetExactlyTheLimit() throws Exception {
        Limit limit = Limit.fixed(100, HOUR);
        String key = freshKey();
        AtomicInteger allowed = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        race(64, 10, (t, i) -> {
            if (call(SIX_PM + i, key, limit).allowed()) {
                allowed.incrementAndGet();
            }
        }, errors);
        assertTrue(errors.isEmpty(), () -> "errors: " + errors);
        assertEquals(100, allowed.get());
        assertEquals(0, peek(SIX_PM + 20, key, limit).remaining());
    }
}
