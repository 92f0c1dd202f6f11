package it.throttle.scenarios;

/**
 * A suite whose server counts in a Redis of the suite's own under the default {@code throttle.on-store-failure=allow}:
 * the outage scenarios (while Redis is dead, calls pass uncounted) and the counts kept in Redis.
 */
public interface OnRedisAllowing extends StoreFailureScenarios, CountsInRedis {

    /** The server's metrics and health endpoints. */
    Observability observed();

    @Override
    default StoreOutage storeOutage() {
        return new StoreOutage(observed(), observed().port(), redis(), false);
    }
}
