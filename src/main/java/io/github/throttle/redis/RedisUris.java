package io.github.throttle.redis;

import io.lettuce.core.RedisURI;

import java.util.stream.Collectors;

/** Describes Redis URIs for logs and messages without their credentials. */
public final class RedisUris {

    private RedisUris() {
    }

    public static String redact(RedisURI uri) {
        if (!uri.getSentinels().isEmpty()) {
            return "sentinel " + uri.getSentinels().stream().map(s -> s.getHost() + ":" + s.getPort())
                    .collect(Collectors.joining(",")) + " master " + uri.getSentinelMasterId();
        }
        if (uri.getSocket() != null) {
            return "unix:" + uri.getSocket();
        }
        return (uri.isSsl() ? "rediss://" : "redis://") + uri.getHost() + ":" + uri.getPort() + "/" + uri.getDatabase();
    }

    /**
     * Removes the user-info part ({@code user:password@}) of each URI in a string (one URI, or a
     * comma-separated list), for messages about bad input. Greedy up to the last {@code @} of each URI, so a
     * password holding {@code /} or {@code @} is hidden too.
     */
    public static String redact(String uri) {
        if (uri == null) {
            return "null";
        }
        return uri.replaceAll("(?<=://)[^,\\s]*@", "***@");
    }
}
