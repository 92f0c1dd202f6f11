/**
 * Testing an application that uses Throttle: {@link io.github.throttle.testing.ThrottleClock}, the clock a test
 * moves with {@code throttle.clock=manual}.
 */
package io.github.throttle.testing;
