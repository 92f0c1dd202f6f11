package io.github.throttle.redis;

import io.github.throttle.engine.Store;

import java.time.Duration;

/** Opens the Redis store that {@code throttle.redis.*} describes. */
public final class RedisStores {

    private RedisStores() {
    }

    /**
     * @param uri     {@code throttle.redis.uri} (see {@link RedisUris#parse})
     * @param cluster {@code throttle.redis.cluster}
     * @param timeout {@code throttle.redis.timeout}
     * @throws IllegalArgumentException naming {@code throttle.redis.uri} (never its credentials) when a URI
     *                                  cannot be read
     */
    public static Store open(String uri, boolean cluster, Duration timeout) {
        try {
            var parsed = RedisUris.parse(uri, cluster);
            return cluster ? new RedisClusterStore(parsed, timeout) : new RedisStore(parsed.get(0), timeout, 0);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("throttle.redis.uri=" + RedisUris.redact(uri) + " is invalid: " + e.getMessage());
        }
    }
}
