package io.github.throttle.redis;

import io.github.throttle.engine.Store;
import io.netty.channel.EventLoopGroup;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

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
        return open(uri, cluster, timeout, Optional.empty());
    }

    /** As above; {@code eventLoops}: the server's event loops for Lettuce's sockets, empty for Lettuce's own threads. */
    public static Store open(String uri, boolean cluster, Duration timeout, Optional<Supplier<EventLoopGroup>> eventLoops) {
        try {
            var parsed = RedisUris.parse(uri, cluster);
            return cluster ? new RedisClusterStore(parsed, timeout, 0, eventLoops) : new RedisStore(parsed.get(0), timeout, 0, eventLoops);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("throttle.redis.uri=" + RedisUris.redact(uri) + " is invalid: " + e.getMessage());
        }
    }
}
