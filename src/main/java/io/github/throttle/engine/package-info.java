/**
 * Counting semantics and the store SPI: {@code Limit}, {@code StoreCall} and {@code StoreReply}, the {@code Store} interface, the keys of buckets and identities, and the {@code Decider} (timeout and failure policy). Knows no Redis, configuration or HTTP.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.engine;
