package io.github.throttle.fleet;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sketch behind the top denied: exact while the items fit, bounded error beyond. */
class SpaceSavingTest {

    @Test
    void exactWhileTheDistinctItemsFit() {
        SpaceSaving sketch = new SpaceSaving(100);
        Map<String, Long> truth = new HashMap<>();
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            String item = "user:" + random.nextInt(100);
            sketch.add(item);
            truth.merge(item, 1L, Long::sum);
        }
        assertEquals(truth, sketch.close());
    }

    @Test
    void beyondItsCapacityHeavyHittersStayAndNoCountIsOffByMoreThanTotalOverCapacity() {
        int capacity = 100;
        SpaceSaving sketch = new SpaceSaving(capacity);
        Map<String, Long> truth = new HashMap<>();
        Random random = new Random(11);
        int total = 50_000;
        for (int i = 0; i < total; i++) {
            // a few heavy hitters among 5,000 identities seen now and then
            String item = random.nextInt(4) == 0 ? "heavy:" + random.nextInt(5) : "ip:" + random.nextInt(5_000);
            sketch.add(item);
            truth.merge(item, 1L, Long::sum);
        }
        Map<String, Long> counted = sketch.close();
        assertEquals(capacity, counted.size(), "bounded");
        long bound = total / capacity;
        counted.forEach((item, count) -> {
            assertTrue(count >= truth.get(item), item + " is never undercounted");
            assertTrue(count - truth.get(item) <= bound, item + " off by at most " + bound);
        });
        truth.forEach((item, count) -> {
            if (count > bound) {
                assertTrue(counted.containsKey(item), item + " (" + count + ") is kept");
            }
        });
    }

    @Test
    void aClosedSketchCountsNothing() {
        SpaceSaving sketch = new SpaceSaving(2);
        assertTrue(sketch.add("a"));
        assertEquals(Map.of("a", 1L), sketch.close());
        assertFalse(sketch.add("a"));
    }
}
