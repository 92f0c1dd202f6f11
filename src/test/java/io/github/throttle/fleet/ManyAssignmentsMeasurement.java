package io.github.throttle.fleet;

import io.github.throttle.limiter.Limiter;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.testing.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.time.Duration;
import java.time.InstantSource;

import static io.github.throttle.fleet.FleetInstances.admin;
import static io.github.throttle.fleet.FleetInstances.fleet;
import static io.github.throttle.fleet.ManyAssignmentsTest.ASSIGNMENTS;
import static io.github.throttle.fleet.ManyAssignmentsTest.assertOnItsPlan;

/**
 * How long {@link ManyAssignmentsTest}'s ten thousand assignments take over a local Redis, on the system clock with
 * every instance polling as in production: the writes on one instance, then what the others take to apply them.
 * Run by hand (it asserts no timing):
 * {@code ./mvnw test -Dinvoker.skip=true -Dtest=ManyAssignmentsMeasurement -Dthrottle.measure=true}
 */
@EnabledIfSystemProperty(named = "throttle.measure", matches = "true")
class ManyAssignmentsMeasurement {

    /** Whether each change is logged at INFO, as in production ({@code -Dthrottle.measure.logged=false}: not). */
    private static final boolean LOGGED = !"false".equals(System.getProperty("throttle.measure.logged"));

    @Test
    void measureTenThousandAssignmentsOverRedis() {
        InstantSource clock = InstantSource.system();
        try (RedisProcess redis = RedisProcess.start();
             Limiter one = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock);
             Limiter two = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock)) {
            long start = System.nanoTime();
            ManyAssignmentsTest.assignInARow(admin(one), ASSIGNMENTS, LOGGED);
            long written = System.nanoTime();
            fleet(two).poll();
            long applied = System.nanoTime();
            assertOnItsPlan(two, ASSIGNMENTS - 1);

            long fresh = System.nanoTime();
            try (Limiter three = FleetInstances.start(RedisStores.open(redis.uri(), false, Duration.ofSeconds(5)), clock)) {
                long started = System.nanoTime();
                assertOnItsPlan(three, ASSIGNMENTS - 1);
                System.out.printf("%n%d assignments in a row (each logged: %s): %d ms (%.0f/s); instance two applied the rest after the last: %d ms;"
                                + " an instance started afterwards read and applied all: %d ms%n",
                        ASSIGNMENTS, LOGGED, ms(written - start), ASSIGNMENTS * 1e9 / (written - start), ms(applied - written), ms(started - fresh));
            }
            // the second instance polling meanwhile kept up: now, one poll that brings nothing
            long idle = System.nanoTime();
            fleet(two).poll();
            System.out.printf("a poll with nothing new: %.2f ms%n", (System.nanoTime() - idle) / 1e6);
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
