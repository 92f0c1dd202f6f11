/**
 * The CDI adapter: the interceptor for throttled beans, the {@code Throttler} bean, the limiter's holder and the start-up check.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.cdi;
