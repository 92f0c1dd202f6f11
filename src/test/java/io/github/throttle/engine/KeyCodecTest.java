package io.github.throttle.engine;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyCodecTest {

    private final KeyCodec codec = new KeyCodec("throttle");

    @Test
    void distinctIdentitiesNeverShareAKeyAndEveryKeyIsShortAndClean() {
        Random rnd = new Random(42);
        List<String> ids = new ArrayList<>(List.of("", "ip:1.2.3.4", "ip:1.2.3.4\r\nX: y", "user:{tag}", "user:a}b{", "a:b",
                "a*", "x".repeat(10_000), "üñï©ødé", "~abc", "key:" + "k".repeat(64), "key:" + "k".repeat(65), "  ", "\u0000"));
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int len = rnd.nextInt(rnd.nextBoolean() ? 8 : 120);
            for (int j = 0; j < len; j++) {
                b.append(switch (rnd.nextInt(6)) {
                    case 0 -> (char) ('a' + rnd.nextInt(26));
                    case 1 -> ":{}*~\r\n ".charAt(rnd.nextInt(8));
                    case 2 -> (char) rnd.nextInt(0x3000);
                    default -> (char) ('0' + rnd.nextInt(10));
                });
            }
            ids.add(b.toString());
        }
        for (String bucket : List.of("Api#search", "shared", "a:b", "{x}", "n".repeat(300))) {
            String part = codec.bucketHead(bucket);
            Map<String, String> seen = new HashMap<>();
            for (String id : ids) {
                String key = codec.key(part, id);
                String before = seen.put(key, id);
                assertTrue(before == null || before.equals(id), "'" + before + "' and '" + id + "' share " + key);
                assertTrue(key.getBytes(StandardCharsets.UTF_8).length <= KeyCodec.MAX_KEY_BYTES, key);
                assertFalse(key.contains("{") || key.contains("}") || key.contains("\r") || key.contains("\n") || key.contains(" "), key);
            }
        }
        // buckets stay apart too: bucket "a:b" + id "c" is not bucket "a" + id "b:c"
        assertFalse(codec.key(codec.bucketHead("a:b"), "c").equals(codec.key(codec.bucketHead("a"), "b:c")));
    }

    @Test
    void plainIdentitiesStayReadable() {
        assertEquals("throttle:Api#search:ip:10.0.0.1", codec.key(codec.bucketHead("Api#search"), "ip:10.0.0.1"));
        assertEquals("throttle:Api#search:ip:2001:db8::1", codec.key(codec.bucketHead("Api#search"), "ip:2001:db8::1"));
    }

    @Test
    void aPrefixWithBracesOrColonsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KeyCodec("{rl}"));
        assertThrows(IllegalArgumentException.class, () -> new KeyCodec("a:b"));
        assertThrows(IllegalArgumentException.class, () -> new KeyCodec(""));
    }
}
