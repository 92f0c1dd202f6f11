/**
 * The application's limiter: each throttled target resolved once (limits per plan, buckets, identity resolvers,
 * weighers), and the path of one call: plan, weight, identities, the deny cache or one store call, one decision.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.limiter;
