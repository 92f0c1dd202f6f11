package io.github.throttle.engine;

/**
 * A store's answer to a lease ({@link Store#lease}): the call as granted and the store's reply to it (a denial of
 * the call asked when too little was left), and for how many milliseconds, from when the store decided, the current
 * sub-bucket of every window of the call still holds the grant.
 *
 * @param call   a grant: the call of the weight granted, its lease id the key's generation, which a give-back of
 *               what the lease did not use names ({@link Took#of}); a denial: the call asked
 * @param reply  the store's reply to {@code call}
 * @param millis how long the grant's sub-buckets last from the store's decision
 */
public record Leased(StoreCall call, StoreReply reply, long millis) {

    /** The weight granted: 0 when denied. */
    public long granted() {
        return reply.allowed() ? call.countWeight(0) : 0;
    }
}
