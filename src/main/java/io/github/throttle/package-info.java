/**
 * Throttle's API: annotate a JAX-RS resource or CDI bean method with {@link io.github.throttle.Throttle},
 * tell who is charged with a {@link io.github.throttle.ThrottleKey}, read the answer as a
 * {@link io.github.throttle.Decision} (or catch {@link io.github.throttle.ThrottledException} from a bean),
 * and throttle code that is not annotated through the {@link io.github.throttle.Throttler} bean.
 *
 * <p>These types are the whole API. Every sub-package is internal and may change in any release.
 */
package io.github.throttle;
