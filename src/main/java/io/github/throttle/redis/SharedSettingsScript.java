package io.github.throttle.redis;

import io.github.throttle.engine.SharedChanges;
import io.github.throttle.engine.SharedState;
import io.lettuce.core.codec.Base16;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The script that writes and reads shared settings ({@code shared-settings.lua}, whose header is its contract):
 * a write sets one field, moves the version on and notes the field under its version, in one step; a read
 * brings what changed since the version held, or every field. Its arguments and replies are built and parsed
 * here only.
 */
final class SharedSettingsScript {

    static final String RESOURCE = "/io/github/throttle/redis/shared-settings.lua";
    static final String TEXT = SlidingWindowScript.text(RESOURCE);
    static final String SHA1 = Base16.digest(TEXT.getBytes(StandardCharsets.UTF_8));
    private static final String KEPT = Integer.toString(SharedState.CHANGES_KEPT);

    private SharedSettingsScript() {
    }

    /** The arguments of a write of {@code field} ({@code value} null: removes it). */
    static String[] write(String field, String value) {
        return new String[] {"write", field, KEPT, value == null ? "0" : "1", value == null ? "" : value};
    }

    /** The arguments of a read by an instance holding version {@code held}. */
    static String[] read(long held) {
        return new String[] {"read", Long.toString(held), KEPT};
    }

    /** The version a write made. */
    static long written(List<Object> reply) {
        return (Long) reply.get(0);
    }

    /** What a read brought. */
    static SharedChanges changes(List<Object> reply) {
        long version = (Long) reply.get(0);
        String kind = (String) reply.get(1);
        if (kind.equals("same")) {
            return SharedChanges.none(version);
        }
        Map<String, String> fields = new HashMap<>();
        for (int i = 2; i + 1 < reply.size(); i += 2) {
            fields.put((String) reply.get(i), (String) reply.get(i + 1));
        }
        return new SharedChanges(version, kind.equals("every"), fields);
    }
}
