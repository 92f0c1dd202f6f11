package io.github.throttle.redis;

import io.github.throttle.engine.Store;

import java.time.Duration;

/** Opens the Redis store that {@code throttle.redis.*} describes. */
public final class RedisStores {

    private RedisStores() {
    }

    /**
     * @param uri     {@code throttle.redis.uri}: {@code redis://}, {@code rediss://} or {@code redis-sentinel://}
     * @param cluster {@code throttle.redis.cluster}
     * @param timeout {@code throttle.redis.timeout}
     */
    public static Store open(String uri, boolean cluster, Duration timeout) {
        if (cluster) {
            throw new IllegalArgumentException("throttle.redis.cluster is not supported yet");
        }
        return new RedisStore(uri, timeout);
    }
}
