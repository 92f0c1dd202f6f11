package it.throttle.lts;

import it.throttle.quarkus.SettingsProfile;
import it.throttle.quarkus.StoreFailuresDenied;

import java.util.Map;

/**
 * The settings some test classes of this suite run under, beyond the application's own. Quarkus builds and starts
 * the application once for all the classes that name the same profile (and the same test resources), so each
 * profile here is one more start; {@link OnRedisTest} needs none, {@link StoreDownDeniesTest} names
 * {@link StoreFailuresDenied} and {@link LoginThrottleTest} the README's own.
 */
final class Profiles {

    private Profiles() {
    }

    /**
     * No settings: the embedded store, as without a profile. Named so that the classes without Redis have an
     * application of their own: on Quarkus 3.33, the application restarted for {@link OnRedisTest} (no profile, a
     * Redis of its own) after them was started without its Redis's configuration, on the embedded store.
     */
    public static final class EmbeddedStore extends SettingsProfile {

        public EmbeddedStore() {
            super(Map.of());
        }
    }

    /**
     * The admin API switched on, and Throttle's metrics sent to OpenTelemetry (switched on there, exported every
     * 200 ms to {@link TestMetricExporterProvider}). Neither changes what the other's tests look at (the admin API's
     * answers; the metrics of the calls of {@code /lts/counted}, which no admin test makes), so one start of the
     * application serves both.
     */
    public static final class AdminApiAndOtelMetrics extends SettingsProfile {

        public AdminApiAndOtelMetrics() {
            super(Map.of("throttle.admin.enabled", "true",
                    "throttle.metrics", "otel",
                    "quarkus.otel.metrics.enabled", "true",
                    "quarkus.otel.metrics.exporter", "throttle-test",
                    "quarkus.otel.metric.export.interval", "200ms"));
        }
    }

    /**
     * {@code throttle.on-store-failure=allow}, the default, named so that an outage has an application of its own:
     * {@link OnRedisTest} finds no failed store call in the metrics of its application. The application's timeout
     * (5 s): a killed Redis refuses commands at once, and after its restart a slow answer on a busy machine must not
     * pass for a failure.
     */
    public static final class StoreFailuresAllowed extends SettingsProfile {

        public StoreFailuresAllowed() {
            super(Map.of("throttle.on-store-failure", "allow"));
        }
    }

    /**
     * {@code throttle.on-store-failure=local} with {@code throttle.local.share=0.5}, every loopback address a proxy
     * believed. The application's timeout (5 s): calls are counted in Redis exactly only if a slow answer on a busy
     * machine does not pass for a failure.
     */
    public static final class StoreFailuresCountedLocally extends SettingsProfile {

        public StoreFailuresCountedLocally() {
            super(Map.of("throttle.on-store-failure", "local", "throttle.local.share", "0.5",
                    "throttle.forwarded.trusted-proxies", "127.0.0.0/8"));
        }
    }
}
