package io.github.throttle.redis;

import io.github.throttle.engine.Store;
import io.lettuce.core.RedisURI;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Opens the Redis store that {@code throttle.redis.*} describes. */
public final class RedisStores {

    private static final String URI_KEY = "throttle.redis.uri";

    private RedisStores() {
    }

    /**
     * @param uri     {@code throttle.redis.uri}: {@code redis://}, {@code rediss://} or {@code redis-sentinel://};
     *                with {@code cluster}, one or more comma-separated {@code redis://} or {@code rediss://}
     *                seed nodes
     * @param cluster {@code throttle.redis.cluster}
     * @param timeout {@code throttle.redis.timeout}
     * @throws IllegalArgumentException naming {@code throttle.redis.uri} (never its credentials) when a URI
     *                                  cannot be read
     */
    public static Store open(String uri, boolean cluster, Duration timeout) {
        if (!cluster) {
            return new RedisStore(parse(uri, uri), timeout, 0);
        }
        List<RedisURI> seeds = new ArrayList<>();
        for (String seed : (uri == null ? "" : uri).split(",")) {
            if (seed.isBlank()) {
                throw invalid(uri, "an empty seed in the comma-separated list");
            }
            RedisURI parsed = parse(seed.trim(), uri);
            if (!parsed.getSentinels().isEmpty() || parsed.getSocket() != null) {
                throw invalid(uri, "cluster seeds must be redis:// or rediss:// host:port URIs");
            }
            if (!seeds.isEmpty() && seeds.get(0).isSsl() != parsed.isSsl()) {
                throw invalid(uri, "seeds mix redis:// and rediss://");
            }
            seeds.add(parsed);
        }
        return new RedisClusterStore(seeds, timeout);
    }

    private static RedisURI parse(String uri, String whole) {
        if (uri == null || uri.isBlank()) {
            throw invalid(whole, "it is empty");
        }
        RedisURI parsed;
        try {
            parsed = RedisURI.create(uri);
        } catch (RuntimeException e) {
            // the parser's message may quote the URI, password included: do not pass it on
            throw invalid(whole, "not a Redis URI");
        }
        if (parsed.getSentinels().isEmpty() && parsed.getSocket() == null
                && (parsed.getHost() == null || parsed.getHost().isBlank())) {
            throw invalid(whole, "no host");
        }
        if (parsed.getHost() != null && parsed.getHost().contains(":") && !parsed.getHost().startsWith("[")) {
            // the parser keeps an unreadable port as part of the host name
            throw invalid(whole, "the port is not a number");
        }
        return parsed;
    }

    private static IllegalArgumentException invalid(String uri, String why) {
        return new IllegalArgumentException(URI_KEY + "=" + RedisUris.redact(uri) + " is invalid: " + why);
    }
}
