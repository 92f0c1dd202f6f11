/**
 * The {@code throttle.*} settings and the effective configuration of each throttled target (annotations with MicroProfile Config overrides), read and validated once.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.config;
