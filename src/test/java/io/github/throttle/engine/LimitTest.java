package io.github.throttle.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class LimitTest {

    @Test
    void theSubBucketOfATimeIsItsFloorDivisionWhateverTheOrderOfTimesAsked() {
        Random rnd = new Random(7);
        Limit[] limits = {Limit.fixed(10, 1_000), Limit.of(240, 3_600_000, 60_000), Limit.of(5, 7, 3), Limit.of(1, 1, 1)};
        long t = 1_790_000_000_000L;
        for (int i = 0; i < 200_000; i++) {
            t += switch (rnd.nextInt(6)) {
                case 0 -> -rnd.nextInt(5_000);                  // back
                case 1 -> rnd.nextInt(10_000_000);              // far ahead
                case 2 -> -t - rnd.nextInt(100_000);            // before the epoch
                default -> rnd.nextInt(3);
            };
            for (Limit l : limits) {
                assertEquals(Math.floorDiv(t, l.precisionMillis()), l.subBucket(t), l + " at " + t);
            }
        }
    }

    @Test
    void threadsAskingOneLimitForDifferentTimesEachGetTheirOwnSubBucket() throws Exception {
        Limit limit = Limit.of(100, 60_000, 1_000);
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> wrong = new ArrayList<>();
            for (int th = 0; th < threads; th++) {
                long base = 1_790_000_000_000L + th * 999L;     // each thread in other sub-buckets
                wrong.add(pool.submit(() -> {
                    start.await();
                    int bad = 0;
                    for (int i = 0; i < 500_000; i++) {
                        long t = base + (i % 5) * 1_001L;
                        if (limit.subBucket(t) != Math.floorDiv(t, 1_000)) {
                            bad++;
                        }
                    }
                    return bad;
                }));
            }
            start.countDown();
            int bad = 0;
            for (Future<Integer> f : wrong) {
                bad += f.get();
            }
            assertEquals(0, bad, "sub-buckets answered for another thread's time");
        } finally {
            pool.shutdownNow();
        }
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
