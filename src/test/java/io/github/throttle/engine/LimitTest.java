package io.github.throttle.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LimitTest {

    @Test
    void aSubBucketStartsAtAMultipleOfThePrecisionAndHoldsItsEdge() {
        Limit l = Limit.of(10, 10_000, 1_000);
        assertEquals(0, l.subBucket(0));
        assertEquals(0, l.subBucket(999));
        assertEquals(1, l.subBucket(1_000));
        assertEquals(1_790_000_000L, l.subBucket(1_790_000_000_999L));
        assertEquals(1_790_000_001L, l.subBucket(1_790_000_001_000L));
        // a precision that does not divide the duration: sub-buckets of 3 ms, ceil(7 / 3) = 3 of them per window
        Limit odd = Limit.of(5, 7, 3);
        assertEquals(2, odd.subBucket(8));
        assertEquals(3, odd.subBucket(9));
        assertEquals(15, odd.leavesAt(2), "sub-bucket 2 (6-8 ms) leaves when sub-bucket 5 begins");
    }

    @Test
    void beforeTheEpochSubBucketsRoundDownNotTowardsZero() {
        Limit l = Limit.fixed(10, 1_000);
        assertEquals(-1, l.subBucket(-1));
        assertEquals(-1, l.subBucket(-1_000));
        assertEquals(-2, l.subBucket(-1_001));
        assertEquals(0, l.leavesAt(-1), "the second before the epoch leaves at the epoch");
        assertEquals(-1_000, l.leavesAt(-2));
    }

    @Test
    void subBucketsAreCountedRoundingUpAndTheirNumberIsBounded() {
        assertEquals(3, Limit.of(5, 7, 3).subBuckets());
        assertEquals(1_000_000, Limit.of(10, 2_000_000, 2).subBuckets());
        Limit.Broken broken = Limit.check(10, 2_000_001, 2).orElseThrow();
        assertEquals("precision", broken.member());
        assertTrue(broken.why().contains("1000001 sub-buckets"), broken.why());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Limit.of(10, 2_000_001, 2));
        assertTrue(e.getMessage().startsWith("precision = 2 makes 1000001 sub-buckets"), e.getMessage());
    }

    @Test
    void aWeightMustFitTheLimit() {
        Limit l = Limit.fixed(5, 1000);
        assertTrue(l.checkWeight(5).isEmpty());
        assertEquals("weight", l.checkWeight(6).orElseThrow().member());
        assertEquals("weight", l.checkWeight(0).orElseThrow().member());
    }

    @Test
    void limitsCountTheSameWindowWhenDurationAndPrecisionAgree() {
        assertTrue(Limit.of(3, 5000, 5000).sameWindow(Limit.fixed(9, 5000)));
        assertFalse(Limit.of(3, 5000, 1000).sameWindow(Limit.fixed(3, 5000)));
    }
}
