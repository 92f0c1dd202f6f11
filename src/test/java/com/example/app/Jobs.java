package com.example.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** A bean whose in-flight limit would be given back before its Future's work runs. */
@ApplicationScoped
public class Jobs {
    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
    public Future<String> submit() {
        return CompletableFuture.completedFuture("a");
    }
}
