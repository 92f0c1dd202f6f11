/**
 * Readiness: the MicroProfile Health check {@code throttle}, active only where MicroProfile Health is.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.health;
