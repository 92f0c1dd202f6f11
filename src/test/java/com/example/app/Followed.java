package com.example.app;

import io.github.throttle.Throttle;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import reactor.core.publisher.Flux;

import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** A bean with in-flight limits on every return type whose end Throttle follows. */
@ApplicationScoped
public class Followed {
    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public CompletionStage<String> stage() {
        return CompletableFuture.completedFuture("a");
    }

    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public Uni<String> uni() {
        return Uni.createFrom().item("a");
    }

    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public Multi<String> multi() {
        return Multi.createFrom().item("a");
    }

    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public Flow.Publisher<String> flow() {
        return Multi.createFrom().item("a");
    }

    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public String plain() {
        return "a";
    }

    /** A rate limit alone holds no seat: any return type will do. */
    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES)
    public Flux<String> counted() {
        return Flux.just("a");
    }
}
