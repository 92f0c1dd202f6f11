package io.github.throttle.memory;

/**
 * What a window holds besides its newest sub-bucket, made only when it needs some: the older sub-buckets still
 * holding weight (this queue) and the weight reserved for calls that wait. One object, not two, so that a
 * window seen in one sub-bucket only costs a reference. Guarded by the lock of its identity.
 */
final class WindowRest extends SubBucketQueue {

    /** Weight reserved for calls that wait, by sub-bucket, oldest first; null until a call waits. */
    SubBucketQueue reserved;
    /** The time of the latest reservation. */
    long lastReserved;
    /** Whether reservations are read: set by a reservation, kept by a call recorded while some count. */
    boolean marked;
}
