/**
 * The embedded store: the rules of the Redis script applied in this JVM, with striped locks and a sweep of idle identities.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.memory;
