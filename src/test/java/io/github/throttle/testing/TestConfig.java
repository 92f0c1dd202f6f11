package io.github.throttle.testing;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;

import java.util.HashMap;
import java.util.Map;

/** A real MicroProfile Config (SmallRye) holding exactly the given properties. */
public final class TestConfig {

    private TestConfig() {
    }

    public static Config of(String... keyValues) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(m, "test", 500)).build();
    }
}
