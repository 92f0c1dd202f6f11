package it.throttle.quarkus;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * A test profile that only sets configuration. Quarkus builds the application once per distinct profile (and set of
 * test resources) and restarts it between them, so test classes that need the same settings name the same profile.
 */
public abstract class SettingsProfile implements QuarkusTestProfile {

    private final Map<String, String> settings;

    protected SettingsProfile(Map<String, String> settings) {
        this.settings = Map.copyOf(settings);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return settings;
    }
}
