/**
 * What instances sharing a store do together: settings changed while running (assignments, overrides, resets),
 * read as they change; the denials counted over every instance; and the admin operations behind
 * {@link io.github.throttle.ThrottleAdmin}. Built on the limiter, which knows it only as a
 * {@link io.github.throttle.limiter.Fleet}.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.fleet;
