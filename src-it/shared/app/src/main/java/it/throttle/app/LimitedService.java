package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.temporal.ChronoUnit;

/** A plain CDI bean: denied calls throw ThrottledException, which JAX-RS turns into a 429. */
@ApplicationScoped
public class LimitedService {

    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    public String work() {
        return "worked";
    }

    /** In report mode (microprofile-config.properties): never throws, however often it is called. */
    @Throttle(limit = 1, duration = 1, unit = ChronoUnit.HOURS)
    public String reported() {
        return "reported";
    }
}
