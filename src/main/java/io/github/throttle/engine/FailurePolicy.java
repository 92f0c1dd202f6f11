package io.github.throttle.engine;

import java.util.function.Supplier;

/**
 * What a call gets while the store cannot be asked: let through uncounted ({@link #ALLOW}), refused
 * ({@link #DENY}), or decided by a store of this instance with each limit scaled by a share
 * ({@link #local}).
 *
 * @param kind       which of the three
 * @param localShare the share of each limit a local store allows, in (0, 1] (1 unless {@code LOCAL})
 * @param localStore opens the store that decides during one failure episode (null unless {@code LOCAL})
 */
public record FailurePolicy(Kind kind, double localShare, Supplier<Store> localStore) {

    public enum Kind { ALLOW, DENY, LOCAL }

    public static final FailurePolicy ALLOW = new FailurePolicy(Kind.ALLOW, 1, null);
    public static final FailurePolicy DENY = new FailurePolicy(Kind.DENY, 1, null);

    public FailurePolicy {
        if (!(localShare > 0 && localShare <= 1)) {
            throw new IllegalArgumentException("a local share must be above 0 and at most 1: " + localShare);
        }
        if ((kind == Kind.LOCAL) != (localStore != null)) {
            throw new IllegalArgumentException("a local store goes with kind LOCAL only");
        }
    }

    /** Counting on this instance, in a store opened for each failure episode, with limits scaled by {@code share}. */
    public static FailurePolicy local(double share, Supplier<Store> localStore) {
        return new FailurePolicy(Kind.LOCAL, share, localStore);
    }

    /** A limit as a local store enforces it: {@code max(1, floor(limit × share))}, the same window. */
    public Limit scale(Limit l) {
        long scaled = Math.max(1, (long) Math.floor(l.limit() * localShare));
        return l.withLimit(scaled);
    }
}
