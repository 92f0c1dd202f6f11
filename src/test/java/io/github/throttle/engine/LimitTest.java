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
                assertEquals(Math.floorDiv(t, l.precisionMillis()), l.block(t), l + " at " + t);
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
                        if (limit.block(t) != Math.floorDiv(t, 1_000)) {
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
    void windowsKeptAsAChainHaveTagsEndingInASemicolonAndNoOtherTagHoldsOne() {
        assertEquals(':', last(Limit.fixed(1, 3_600_000).tag()));
        assertEquals(':', last(Limit.of(1, 3_600_000, 60_000).tag()), "64 sub-buckets or fewer: a ring");
        assertEquals(':', last(Limit.of(1, 64_000, 1_000).tag()));
        assertEquals(';', last(Limit.of(1, 65_000, 1_000).tag()), "more than 64: a chain");
        assertEquals(';', last(Limit.of(1, 3_600_000, 1_000).tag()));
        assertNotEquals(Limit.of(1, 65_000, 1_000).tag(), Limit.of(1, 64_000, 1_000).tag());
        for (Limit l : new Limit[] {Limit.of(1, 3_600_000, 1_000), Limit.of(1, 3_600_000, 60_000)}) {
            String body = l.tag().substring(0, l.tag().length() - 1);
            assertFalse(body.contains(":") || body.contains(";"), l.tag());
        }
    }

    private static char last(String s) {
        return s.charAt(s.length() - 1);
    }
}
