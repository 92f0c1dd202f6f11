package io.github.throttle.engine;

/**
 * What one pair of an allowed, recorded call took in its store, one type per kind of counter: what giving it back
 * needs ({@link Store#giveBack}).
 */
public sealed interface Taken {

    /** Weight recorded in sub-bucket {@code subBucket} of a rate window. */
    record Counted(long subBucket) implements Taken {
    }

    /** Weight reserved ahead of now in sub-bucket {@code subBucket} of a rate window, for a call that waits. */
    record Reserved(long subBucket) implements Taken {
    }

    /** A seat, held under lease {@code id}; 0: none was taken (a weight of 0). */
    record Lease(long id) implements Taken {
    }
}
