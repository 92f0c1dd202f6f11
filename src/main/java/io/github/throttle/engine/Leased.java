package io.github.throttle.engine;

/**
 * A store's answer to a lease ({@link Store#lease}): the reply of a call of the weight granted (a denial when nothing
 * was), how much was granted, and for how many milliseconds, from when the store decided, the current sub-bucket of
 * every window of the call still holds it.
 *
 * @param reply   the reply, of a call of weight {@code granted} when granted
 * @param granted the weight granted: at most the weight asked, 0 when denied
 * @param millis  how long the grant's sub-buckets last from the store's decision: the lease's life at most
 */
public record Leased(StoreReply reply, long granted, long millis) {
}
