package it.throttle.quarkus;

import java.util.Map;

/**
 * {@code throttle.on-store-failure=deny}, with the application's timeout (5 s): a killed Redis refuses commands at
 * once, and after its restart a slow answer on a busy machine must not pass for a failure.
 */
public final class StoreFailuresDenied extends SettingsProfile {

    public StoreFailuresDenied() {
        super(Map.of("throttle.on-store-failure", "deny"));
    }
}
