package io.github.throttle.engine;

/**
 * A store's answer to a lease ({@link Store#lease}): the call as granted and the store's reply to it, or the call
 * asked and its denial when less than its weight was left.
 *
 * @param call   a grant: the call of the weight granted, its lease id the key's generation, which a give-back of
 *               what the lease did not use names ({@link Took#of}); a denial: the call asked
 * @param reply  the store's reply to {@code call}
 * @param millis a grant: how long it lives from the store's decision (to the end of its first sub-bucket to end,
 *               at most the life asked for); a denial: how long the key's leases still live from then (0: none), the
 *               longest the denial may be taken as certain, since a lease gives back what it did not use
 */
public record Leased(StoreCall call, StoreReply reply, long millis) {

    /** The weight granted: 0 when denied. */
    public long granted() {
        return reply.allowed() ? call.countWeight(0) : 0;
    }
}
