package it.throttle.quarkus;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;

import java.time.temporal.ChronoUnit;

/** A class-level limit for the resource classes that extend this one. */
@Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS, key = ThrottleKey.ApiKey.class)
public abstract class InheritedLimit {
}
