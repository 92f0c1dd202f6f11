/**
 * OpenAPI: the filter that adds the 429 (and 503) responses of throttled operations to the document, where
 * MicroProfile OpenAPI is present.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.openapi;
