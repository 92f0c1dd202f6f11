package io.github.throttle.limiter;

import io.github.throttle.Caller;

/**
 * What instances sharing a store add to each call of this one: plans assigned while running, and the denials
 * they count together. The limiter knows them through this interface only; {@link #NONE} until one is joined
 * ({@link Limiter#join}).
 */
public interface Fleet extends AutoCloseable {

    /** No assignments, and denials counted nowhere. */
    Fleet NONE = new Fleet() {
        @Override
        public String assignedPlan(Caller caller) {
            return null;
        }

        @Override
        public void denied(String bucket, String identity) {
        }

        @Override
        public void close() {
        }
    };

    /** The plan a live assignment gives the caller, or null. Called on every call: reads memory only. */
    String assignedPlan(Caller caller);

    /** Counts one denied (or would-deny) call of {@code identity} in {@code bucket}. */
    void denied(String bucket, String identity);

    @Override
    void close();
}
