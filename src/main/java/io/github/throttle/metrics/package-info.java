/**
 * Metrics: Throttle's meters and the backends that publish them (Micrometer, MicroProfile Metrics,
 * OpenTelemetry), each used only when the server has it.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.metrics;
