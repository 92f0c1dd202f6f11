package io.github.throttle.engine;

import io.github.throttle.Decision;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counting rules of the README, "Counting semantics", for any {@link Store}. Time is passed in each call
 * (the client clock), so the tests drive it exactly.
 */
public abstract class StoreContract {

    protected static final long SECOND = 1000;
    protected static final long MINUTE = 60 * SECOND;
    protected static final long HOUR = 60 * MINUTE;
    /** 2026-11-22T18:00:00Z: the seed's examples speak of 6 PM. */
    protected static final long SIX_PM = Instant.parse("2026-11-22T18:00:00Z").toEpochMilli();

    protected abstract Store store();

    private int ids;

    /** A key no other test uses. */
    protected String freshKey() {
        return "test:" + getClass().getSimpleName() + ":" + (++ids) + ":" + System.nanoTime();
    }

    protected Decision call(long at, long weight, String[] keys, Limit... limits) {
        return decide(at, weight, true, keys, limits);
    }

    protected Decision call(long at, String key, Limit... limits) {
        return decide(at, 1, true, new String[] {key}, limits);
    }

    protected Decision peek(long at, String key, Limit... limits) {
        return decide(at, 1, false, new String[] {key}, limits);
    }

    protected Decision decide(long at, long weight, boolean record, String[] keys, Limit... limits) {
        StoreCall.Builder b = StoreCall.builder(at, record);
        for (String key : keys) {
            for (int i = 0; i < limits.length; i++) {
                b.add(key, limits[i], weight, i);
            }
        }
        StoreCall call = b.build();
        StoreReply reply = store().decide(call).toCompletableFuture().join();
        return Decider.decision(reply, call, List.of(limits));
    }

    @Test
    void seedExampleTwentyUsedAtSixOFiveComeBackAtSevenOFive() {
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
    void tenPerSecondAndHundredTwentyPerMinuteAndTwoFortyPerHourAreCheckedTogether() {
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
    void deniedCallsRecordNothingSoTheOrderOfLimitsDoesNotMatter() {
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
    void aWeightedCallSpendsItsWeightAndIsDeniedWhenItDoesNotFit() {
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
    void aFixedWindowReturnsEverythingAtItsEndASlidingOneBlockByBlock() {
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
    void precisionEqualToDurationIsAFixedWindow() {
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
    void windowEdgesBelongToTheLaterSubBucket() {
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
    void retryAfterWaitsUntilEnoughOldWeightHasLeft() {
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
    void withSeveralIdentitiesOneOverItsLimitDeniesAndNothingIsRecordedForTheOthers() {
        Limit limit = Limit.fixed(3, MINUTE);
        String ip = freshKey();
        String user = freshKey();
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
    void aReportRecordsNothing() {
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
    void whenTheClockGoesBackCallsCountInTheNewestSubBucketAndNoQuotaIsWidened() {
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
    void afterAnIdleGapAnHourBySecondsStartsEmpty() {
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
    void millisecondWindowsWork() {
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
    void limitsOfOneBucketAreKeptApartByWindow() {
        Limit a = Limit.fixed(2, SECOND);
        Limit b = Limit.fixed(2, MINUTE);
        String key = freshKey();
        call(SIX_PM, key, a);
        call(SIX_PM + 1, key, a);
        assertEquals(1, call(SIX_PM + 2, key, b).remaining());
        assertFalse(call(SIX_PM + 3, key, a).allowed());
    }

    @Test
    void sixtyFourThreadsRacingOnOneIdentityGetExactlyTheLimit() throws Exception {
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

    /** One step of a racing thread: its {@code i}-th call on thread {@code t}. */
    protected interface Step {
        void run(int t, int i) throws Exception;
    }

    /** Runs {@code perThread} steps on each of {@code threads} threads, all started at once; failures go to {@code errors}. */
    protected static void race(int threads, int perThread, Step step, ConcurrentLinkedQueue<Throwable> errors) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            Future<?>[] fs = new Future<?>[threads];
            for (int t = 0; t < threads; t++) {
                int thread = t;
                fs[t] = pool.submit(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < perThread; i++) {
                            step.run(thread, i);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                    return null;
                });
            }
            start.countDown();
            for (Future<?> f : fs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** An allowed or denied call whose weight may be given back, as the store answered it. */
    protected record Charge(StoreCall call, StoreReply reply) {
        boolean allowed() {
            return reply.allowed();
        }
    }

    protected Charge charge(long at, long weight, String key, Limit... limits) {
        StoreCall.Builder b = StoreCall.builder(at, true);
        for (int i = 0; i < limits.length; i++) {
            b.add(key, limits[i], weight, i, true);
        }
        StoreCall call = b.build();
        return new Charge(call, store().decide(call).toCompletableFuture().join());
    }

    protected void giveBack(Charge c) {
        assertTrue(c.allowed(), "only an allowed call recorded weight");
        store().giveBack(c.call().givingBack(), c.reply().subBuckets()).toCompletableFuture().join();
    }

    @Test
    void weightGivenBackIsAsIfItHadNeverBeenRecorded() {
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
    void givingBackNeverMakesUsageNegativeAndTouchesNoOtherIdentity() {
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
    void weightThatHasLeftItsWindowIsNotGivenBackAgain() {
        Limit perMinute = Limit.of(10, MINUTE, SECOND);
        String key = freshKey();
        Charge old = charge(SIX_PM, 4, key, perMinute);
        assertTrue(call(SIX_PM + MINUTE + SECOND, 3, new String[] {key}, perMinute).allowed());
        giveBack(old);
        assertEquals(7, peek(SIX_PM + MINUTE + 2 * SECOND, key, perMinute).remaining());
    }

    @Test
    void aSubBucketEmptiedByAGiveBackIsPassedOverAsTheOldestInARing() {
        emptiedSubBucketIsPassedOver(Limit.of(100, MINUTE, SECOND), SECOND);
    }

    @Test
    void aSubBucketEmptiedByAGiveBackIsPassedOverAsTheOldestInAChain() {
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
    void concurrentCallsThatGiveBackOnSuccessNeverCountMoreFailuresThanTheLimit() throws Exception {
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

    /** Releases the seats of an allowed call, as a call that ends does; its rate weight stays counted. */
    protected void release(Charge c) {
        assertTrue(c.allowed(), "only an allowed call holds seats");
        int[] pairs = c.call().returnablePairs(false, true);
        long[] leases = new long[pairs.length];
        for (int j = 0; j < pairs.length; j++) {
            leases[j] = c.reply().subBucket(pairs[j]);
        }
        store().giveBack(c.call().givingBack(pairs), leases).toCompletableFuture().join();
    }

    private Decision decision(Charge c, Limit... limits) {
        return Decider.decision(c.reply(), c.call(), List.of(limits));
    }

    @Test
    void aSeatIsHeldUntilItsCallEndsThenTakenByTheNext() {
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
    void aSeatNeverReleasedIsFreedWhenItsLeaseEnds() {
        Limit oneInFlight = Limit.inFlight(1, 10 * SECOND, null);
        String key = freshKey();
        assertTrue(charge(SIX_PM, 1, key, oneInFlight).allowed());
        assertFalse(charge(SIX_PM + 10 * SECOND - 1, 1, key, oneInFlight).allowed());
        assertTrue(charge(SIX_PM + 10 * SECOND, 1, key, oneInFlight).allowed(), "the lease ended");
    }

    @Test
    void aLateReleaseNeverFreesAnotherCallsSeat() {
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
    void seatsAndARateWindowOfTheSameLengthAreCountedApart() {
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
    void aDeniedCallTakesNoSeatAndRecordsNothing() {
        Limit perMinute = Limit.fixed(10, MINUTE);
        Limit oneInFlight = Limit.inFlight(1, MINUTE, null);
        String busy = freshKey();
        String idle = freshKey();
        assertTrue(charge(SIX_PM, 1, busy, oneInFlight).allowed());
        StoreCall both = StoreCall.builder(SIX_PM + 1, true)
                .add(busy, perMinute, 1, 0).add(busy, oneInFlight, 1, 1)
                .add(idle, perMinute, 1, 0).add(idle, oneInFlight, 1, 1).build();
        assertFalse(store().decide(both).toCompletableFuture().join().allowed());
        assertEquals(1, peek(SIX_PM + 2, idle, oneInFlight).remaining());
        assertEquals(10, peek(SIX_PM + 2, busy, perMinute).remaining());
    }

    @Test
    void aHeavyCallWaitsForEnoughLeasesToEndSoonestFirst() {
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
    void concurrentCallsNeverHoldMoreSeatsThanTheLimitAndGiveThemAllBack() throws Exception {
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
