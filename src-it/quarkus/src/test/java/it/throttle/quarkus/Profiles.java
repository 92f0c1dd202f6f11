package it.throttle.quarkus;

import java.util.Map;

/**
 * The settings some test classes of this suite run under, beyond the application's own. Quarkus builds and starts
 * the application once for all the classes that name the same profile (and the same test resources), so each
 * profile here is one more start; most classes need none, and those that deny on a store failure name
 * {@link StoreFailuresDenied}.
 */
final class Profiles {

    private Profiles() {
    }

    /**
     * One event loop, which a blocked call would leave with nothing to answer with, and a worker pool of
     * {@value #WORKERS} threads, which throttled calls waiting for their decision would use up. The longest Redis
     * timeout, beyond what the tests hold Redis for, so that every held call is decided by Redis, not by the timeout.
     */
    public static final class OneEventLoop extends SettingsProfile {

        static final int WORKERS = 4;

        public OneEventLoop() {
            super(Map.of("quarkus.vertx.event-loops-pool-size", "1", "quarkus.thread-pool.core-threads", "1",
                    "quarkus.thread-pool.max-threads", Integer.toString(WORKERS), "throttle.redis.timeout", "60s"));
        }
    }

    /** No rate-limit fields at all: {@code throttle.headers=none}. */
    public static final class NoFields extends SettingsProfile {
        public NoFields() {
            super(Map.of("throttle.headers", "none"));
        }
    }

    /** The {@code X-RateLimit-*} trio instead of the IETF fields: {@code throttle.headers=x-ratelimit}. */
    public static final class XRateLimitFields extends SettingsProfile {
        public XRateLimitFields() {
            super(Map.of("throttle.headers", "x-ratelimit"));
        }
    }

    /** The master switch off: {@code throttle.enabled=false}. */
    public static final class SwitchedOff extends SettingsProfile {
        public SwitchedOff() {
            super(Map.of("throttle.enabled", "false"));
        }
    }
}
