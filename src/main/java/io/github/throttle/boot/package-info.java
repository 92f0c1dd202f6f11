/**
 * The composition root: reads the settings, picks and opens the store, and puts the limiter together.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.boot;
