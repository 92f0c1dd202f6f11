package it.throttle.quarkus;

import io.github.throttle.Throttle;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.temporal.ChronoUnit;

/** A throttled bean (not an endpoint) whose Uni is decided on subscription, without blocking the event loop. */
@ApplicationScoped
public class ReportService {

    /** Two reports an hour, for every caller together; the answer tells the thread the method ran on. */
    @Throttle(limit = 2, duration = 1, unit = ChronoUnit.HOURS)
    public Uni<String> report() {
        String ranOn = Thread.currentThread().getName();
        return Uni.createFrom().item(() -> "report ran on " + ranOn);
    }
}
