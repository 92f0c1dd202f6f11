package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class SlidingWindowScriptTest {

    @Test
    void windowsKeptAsAChainHaveTagsEndingInASemicolonAndNoOtherTagHoldsOne() {
        assertEquals(':', last(tag(Limit.fixed(1, 3_600_000))));
        assertEquals(':', last(tag(Limit.of(1, 3_600_000, 60_000))), "64 sub-buckets or fewer: a ring");
        assertEquals(':', last(tag(Limit.of(1, 64_000, 1_000))));
        assertEquals(';', last(tag(Limit.of(1, 65_000, 1_000))), "more than 64: a chain");
        assertEquals(';', last(tag(Limit.of(1, 3_600_000, 1_000))));
        assertNotEquals(tag(Limit.of(1, 65_000, 1_000)), tag(Limit.of(1, 64_000, 1_000)));
        for (Limit l : new Limit[] {Limit.of(1, 3_600_000, 1_000), Limit.of(1, 3_600_000, 60_000)}) {
            String body = tag(l).substring(0, tag(l).length() - 1);
            assertFalse(body.contains(":") || body.contains(";"), tag(l));
        }
    }

    private static String tag(Limit l) {
        return SlidingWindowScript.tag(l);
    }

    private static char last(String s) {
        return s.charAt(s.length() - 1);
    }
}
