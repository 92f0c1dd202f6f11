package io.github.throttle.history;

import io.github.throttle.history.WindowCheck.Admission;
import io.github.throttle.history.WindowCheck.Window;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker's model of one limit: certain violations are found, placements that keep the limit are not reported. */
class WindowCheckTest {

    static final Window FIXED = new Window(5, 1000, 1000);
    static final Window SLIDING = new Window(2, 1000, 250);

    static Admission at(long t) {
        return new Admission(t, t, 1, t);
    }

    static List<Admission> points(long... times) {
        List<Admission> list = new ArrayList<>();
        for (long t : times) {
            list.add(at(t));
        }
        return list;
    }

    @Test
    void aFixedWindowAtItsLimitKeepsItAndOneMoreBreaksIt() {
        assertFalse(WindowCheck.check(FIXED, points(0, 1, 2, 3, 999)).isPresent());
        var v = WindowCheck.check(FIXED, points(0, 1, 2, 3, 998, 999));
        assertTrue(v.isPresent());
        assertEquals(6, v.get().counted());
        assertEquals(0, v.get().fromMillis());
        assertEquals(1000, v.get().toMillis());
    }

    @Test
    void anAdmissionAcrossAWindowsEdgeGoesWhereThereIsRoom() {
        List<Admission> a = points(0, 1, 2, 3, 4, 1000, 1001, 1002, 1003);
        a.add(new Admission(999, 1001, 1, "late"));
        assertFalse(WindowCheck.check(FIXED, a).isPresent(), "placed in the second window, which holds 4");
        a.add(at(1004));
        assertTrue(WindowCheck.check(FIXED, a).isPresent(), "no window certainly holds 6, yet neither has room");
    }

    @Test
    void slidingWindowsAreCheckedAtEverySubBucketStart() {
        assertFalse(WindowCheck.check(SLIDING, points(0, 250, 1000, 1250)).isPresent());
        var v = WindowCheck.check(SLIDING, points(0, 250, 1000, 1100));
        assertTrue(v.isPresent(), "1000 and 1100 with 250 in the window [250, 1250)");
        assertEquals(250, v.get().fromMillis());
        assertTrue(WindowCheck.check(SLIDING, points(0, 500, 999)).isPresent());
        assertFalse(WindowCheck.check(SLIDING, points(0, 999, 1000)).isPresent(), "1000 is in the sub-bucket after the window of 0");
    }

    @Test
    void weightCounts() {
        List<Admission> a = List.of(new Admission(0, 0, 3, "a"), new Admission(500, 500, 2, "b"));
        assertFalse(WindowCheck.check(FIXED, a).isPresent());
        List<Admission> more = new ArrayList<>(a);
        more.add(new Admission(600, 600, 1, "c"));
        assertTrue(WindowCheck.check(FIXED, more).isPresent());
    }

    /** Against brute force over every placement, on small random histories of weight-1 admissions. */
    @Test
    void agreesWithEveryPlacementTried() {
        Random random = new Random(7);
        for (int round = 0; round < 400; round++) {
            Window w = random.nextBoolean() ? new Window(2, 400, 400) : new Window(3, 400, 100);
            List<Admission> a = new ArrayList<>();
            int count = 2 + random.nextInt(6);
            for (int i = 0; i < count; i++) {
                long from = random.nextInt(1200);
                a.add(new Admission(from, from + random.nextInt(300), 1, i));
            }
            boolean some = somePlacementKeeps(w, a, 0, new long[64]);
            assertEquals(!some, WindowCheck.check(w, a).isPresent(), w + " " + a);
        }
    }

    private static boolean somePlacementKeeps(Window w, List<Admission> a, int i, long[] perBucket) {
        long p = w.precisionMillis();
        if (i == a.size()) {
            long n = w.subBuckets();
            for (int e = 0; e < perBucket.length; e++) {
                long sum = 0;
                for (long b = Math.max(0, e - n + 1); b <= e; b++) {
                    sum += perBucket[(int) b];
                }
                if (sum > w.limit()) {
                    return false;
                }
            }
            return true;
        }
        for (long b = a.get(i).from() / p; b <= a.get(i).to() / p; b++) {
            perBucket[(int) b]++;
            boolean keeps = somePlacementKeeps(w, a, i + 1, perBucket);
            perBucket[(int) b]--;
            if (keeps) {
                return true;
            }
        }
        return false;
    }
}
