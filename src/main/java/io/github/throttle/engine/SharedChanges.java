package io.github.throttle.engine;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * What a read of shared settings brought ({@link SharedState#sharedChanges}): the version read, and either the
 * fields written since the version held (a removed field with a null value) or, when {@code every}, every field
 * there is (the version's included), to replace what was held.
 */
public record SharedChanges(long version, boolean every, Map<String, String> fields) {

    public SharedChanges {
        fields = Collections.unmodifiableMap(new HashMap<>(fields));
    }

    /** Nothing changed since {@code version}. */
    public static SharedChanges none(long version) {
        return new SharedChanges(version, false, Map.of());
    }

    /** Whether there is nothing to apply. */
    public boolean isEmpty() {
        return !every && fields.isEmpty();
    }
}
