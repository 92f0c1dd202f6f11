package io.github.throttle.metrics;

/**
 * Where Throttle's meters are published: a counter {@code throttle.calls} (tags {@code bucket}, {@code plan},
 * {@code result}), a timer {@code throttle.store.calls} (tags {@code store}, {@code outcome}), with a Redis store
 * the timer {@code throttle.store.replica.acks} of the waits for replicas (tags {@code store}, {@code outcome}
 * {@code acknowledged} or {@code lacking}) and the counter {@code throttle.store.promotions} (tag {@code store}), with
 * leases the counters {@code throttle.leases} (tag {@code bucket}) and {@code throttle.leases.units} (tags
 * {@code bucket}, {@code outcome} {@code given-back} or {@code stranded}). Meters are
 * made once per tag set, at start-up or on first use, never per call.
 */
public interface Meters {

    /** The name of the calls counter. */
    String CALLS = "throttle.calls";
    /** The name of the store-call timer. */
    String STORE_CALLS = "throttle.store.calls";
    /** The name of the timer of the waits of calls reserved ahead of now ({@code maxWaitMillis}). */
    String WAITS = "throttle.wait";
    /** The name of the timer of the waits for replicas to acknowledge a run ({@code throttle.redis.replica-acks}). */
    String REPLICA_ACKS = "throttle.store.replica.acks";
    /** The name of the counter of promotions a Redis store noticed (a new primary, a new replication id). */
    String PROMOTIONS = "throttle.store.promotions";
    /** The name of the counter of the leases a bucket's hot keys took ({@code throttle.leases=auto}). */
    String LEASES = "throttle.leases";
    /** The name of the counter of the units leases did not use (tags {@code bucket}, {@code outcome}). */
    String LEASE_UNITS = "throttle.leases.units";
    /** Outcome of units a lease did not use: given back to the store. */
    String GIVEN_BACK = "given-back";
    /** Outcome of units a lease did not use: not given back (the store failed); counted until their sub-bucket leaves. */
    String STRANDED = "stranded";
    /** Outcome of a wait for replicas: enough acknowledged in time. */
    String ACKNOWLEDGED = "acknowledged";
    /** Outcome of a wait for replicas: too few acknowledged in time; the run's callers got the failure policy. */
    String LACKING = "lacking";

    /** One counter of {@link #CALLS}. */
    @FunctionalInterface
    interface Counter {
        void increment();
    }

    /** One counter of {@link #LEASE_UNITS}: a number of units at a time. */
    @FunctionalInterface
    interface Amount {
        void add(long n);
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

    /** One timer of {@link #REPLICA_ACKS}: outcome {@link #ACKNOWLEDGED} or {@link #LACKING}. */
    Timer replicaAcks(String store, String outcome);

    /** The counter of {@link #PROMOTIONS}. */
    Counter promotions(String store);

    /** The counter of {@link #LEASES} of a bucket. */
    Counter leases(String bucket);

    /** One counter of {@link #LEASE_UNITS}: outcome {@link #GIVEN_BACK} or {@link #STRANDED}. */
    Amount leaseUnits(String bucket, String outcome);

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
        public Timer replicaAcks(String store, String outcome) {
            return nanos -> { };
        }

        @Override
        public Counter promotions(String store) {
            return () -> { };
        }

        @Override
        public Counter leases(String bucket) {
            return () -> { };
        }

        @Override
        public Amount leaseUnits(String bucket, String outcome) {
            return n -> { };
        }

        @Override
        public String name() {
            return "none";
        }
    };
}
