package com.example.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import reactor.core.publisher.Flux;

import java.time.temporal.ChronoUnit;

/** A bean whose in-flight limit would be given back before its Flux runs. */
@ApplicationScoped
public class Feeds {
    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public Flux<String> news() {
        return Flux.just("a");
    }
}
