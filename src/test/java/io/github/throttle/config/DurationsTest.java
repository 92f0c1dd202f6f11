package io.github.throttle.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DurationsTest {

    @Test
    void everyWrittenFormReadsAsItsDuration() {
        assertEquals(Duration.ofMillis(750), Durations.parse("750"));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofMillis(2500), Durations.parse("2.5s"));
        assertEquals(Duration.ofMinutes(1), Durations.parse("1m"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ofDays(1), Durations.parse(" 1d "));
        assertEquals(Duration.ofMillis(500), Durations.parse("PT0.5S"));
    }

    @Test
    void anythingElseIsRefusedWithTheFormsItTakes() {
        for (String bad : new String[] {"soon", "1w", "h", "1.5h", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad), bad);
            assertTrue(e.getMessage().contains("1h, 1d"), e.getMessage());
        }
    }

    @Test
    void aDurationTooLongToHoldIsRefusedNotAnOverflow() {
        for (String huge : new String[] {"9223372036854775807m", "9223372036854775807h", "9223372036854775807d"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(huge), huge);
            assertTrue(e.getMessage().contains("too long"), e.getMessage());
        }
    }
}
