/**
 * The Redis stores (standalone or Sentinel, and Cluster) on one Lettuce set-up, the script and its argument encoding, and the reading of Redis URIs.
 *
 * <p><b>Internal:</b> not part of Throttle's API and may change in any release. The API is the package
 * {@code io.github.throttle}.
 */
package io.github.throttle.redis;
