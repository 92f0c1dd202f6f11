package it.throttle.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.temporal.ChronoUnit;

/** A plain CDI bean with a pricing table: blocked callers get ThrottledException, which JAX-RS turns into a 403. */
@ApplicationScoped
public class ExportService {

    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    @Throttle(limit = 1000, duration = 1, unit = ChronoUnit.HOURS, plan = "pro")
    public String export() {
        return "exported";
    }
}
