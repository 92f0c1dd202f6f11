package it.throttle.quarkus;

import io.github.throttle.Throttle;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Throttled asynchronous bean methods whose answers tell the thread their body ran on. */
@ApplicationScoped
public class LandingService {

    @Throttle(limit = 1_000_000, duration = 60)
    public CompletionStage<String> stage() {
        return CompletableFuture.completedFuture(Thread.currentThread().getName() + " mdc=" + org.jboss.logging.MDC.get("landing"));
    }

    @Throttle(limit = 1_000_000, duration = 60)
    public Uni<String> uni() {
        String ranOn = Thread.currentThread().getName();
        return Uni.createFrom().item(ranOn);
    }

    /** One call an hour, for every caller together: the calls after it are refused. */
    @Throttle(limit = 1, duration = 1, unit = ChronoUnit.HOURS)
    public CompletionStage<String> scarce() {
        return CompletableFuture.completedFuture(Thread.currentThread().getName());
    }
}
