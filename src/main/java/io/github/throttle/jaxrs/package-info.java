/**
 * The JAX-RS adapter: the request filter that decides before the entity is read, the rate-limit fields of responses, the 429 (and 503) responses, and the client address behind trusted proxies.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.jaxrs;
