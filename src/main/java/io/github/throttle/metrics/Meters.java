package io.github.throttle.metrics;

/**
 * Where Throttle's meters are published: a counter {@code throttle.calls} (tags {@code bucket}, {@code plan},
 * {@code result}) and a timer {@code throttle.store.calls} (tags {@code store}, {@code outcome}). Meters are
 * made once per tag set, at start-up or on first use, never per call.
 */
public interface Meters {

    /** The name of the calls counter. */
    String CALLS = "throttle.calls";
    /** The name of the store-call timer. */
    String STORE_CALLS = "throttle.store.calls";
    /** The name of the timer of the waits of calls reserved ahead of now ({@code maxWaitMillis}). */
    String WAITS = "throttle.wait";

    /** One counter of {@link #CALLS}. */
    @FunctionalInterface
    interface Counter {
        void increment();
    }

    /** One timer of {@link #STORE_CALLS}. */
    @FunctionalInterface
    interface Timer {
        void record(long nanos);
    }

    Counter calls(String bucket, String plan, String result);

    Timer storeCalls(String store, String outcome);

    /** One timer of {@link #WAITS}: the waits of the calls of a bucket that waited for their turn. */
    Timer waits(String bucket);

    /** A short name for logs: {@code micrometer}, {@code mp-metrics}, {@code otel} or {@code none}. */
    String name();

    /** Publishes nothing. */
    Meters NONE = new Meters() {
        @Override
        public Counter calls(String bucket, String plan, String result) {
            return () -> { };
        }

        @Override
        public Timer storeCalls(String store, String outcome) {
            return nanos -> { };
        }

        @Override
        public Timer waits(String bucket) {
            return nanos -> { };
        }

        @Override
        public String name() {
            return "none";
        }
    };
}
