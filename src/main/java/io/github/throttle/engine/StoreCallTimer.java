package io.github.throttle.engine;

/** Told how long each store call took and how it ended: {@link #SUCCESS}, {@link #FAILURE} or {@link #TIMEOUT}. */
@FunctionalInterface
public interface StoreCallTimer {

    String SUCCESS = "success";
    String FAILURE = "failure";
    String TIMEOUT = "timeout";

    StoreCallTimer NONE = (outcome, nanos) -> { };

    void record(String outcome, long nanos);
}
