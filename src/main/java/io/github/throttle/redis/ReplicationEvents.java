package io.github.throttle.redis;

/** What the Redis stores tell about replication, for metrics: acknowledgements waited for, promotions seen. */
public interface ReplicationEvents {

    /** A {@code WAIT} after a run of decisions ended: enough replicas acknowledged it, or not; how long it took. */
    void waited(boolean acknowledged, long nanos);

    /** The store found a new primary, or one that lost what it held (a new replication id). */
    void promoted();

    ReplicationEvents NONE = new ReplicationEvents() {
        @Override
        public void waited(boolean acknowledged, long nanos) {
        }

        @Override
        public void promoted() {
        }
    };
}
