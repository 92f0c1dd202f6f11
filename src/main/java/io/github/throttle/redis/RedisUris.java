package io.github.throttle.redis;

import io.lettuce.core.RedisURI;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Reads {@code throttle.redis.uri}, the one place that does, and describes URIs without their credentials. */
public final class RedisUris {

    private RedisUris() {
    }

    /**
     * @param uri     {@code redis://}, {@code rediss://}, {@code redis-sentinel://} or {@code rediss-sentinel://};
     *                with {@code cluster}, one or more comma-separated {@code redis://} or {@code rediss://}
     *                seed nodes
     * @param cluster whether {@code uri} lists the seeds of a Redis Cluster
     * @return the parsed URI (one, unless a cluster)
     * @throws IllegalArgumentException saying why (never quoting credentials)
     */
    public static List<RedisURI> parse(String uri, boolean cluster) {
        if (!cluster) {
            return List.of(parseOne(uri));
        }
        List<RedisURI> seeds = new ArrayList<>();
        for (String seed : (uri == null ? "" : uri).split(",", -1)) {
            if (seed.isBlank()) {
                throw new IllegalArgumentException("an empty seed in the comma-separated list");
            }
            RedisURI parsed = parseOne(seed.trim());
            if (!parsed.getSentinels().isEmpty() || parsed.getSocket() != null) {
                throw new IllegalArgumentException("cluster seeds must be redis:// or rediss:// host:port URIs, not sentinels or sockets");
            }
            if (!seeds.isEmpty() && seeds.get(0).isSsl() != parsed.isSsl()) {
                throw new IllegalArgumentException("seeds mix redis:// and rediss://");
            }
            if (!seeds.isEmpty() && seeds.get(0).getVerifyMode() != parsed.getVerifyMode()) {
                // the client connects to every node the way it connects to the first seed
                throw new IllegalArgumentException("seeds mix verifyPeer modes");
            }
            seeds.add(parsed);
        }
        return seeds;
    }

    private static RedisURI parseOne(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException("it is empty");
        }
        RedisURI parsed;
        try {
            parsed = RedisURI.create(uri.trim());
        } catch (RuntimeException e) {
            // the parser's message may quote the URI, password included: do not pass it on
            throw new IllegalArgumentException(uri.toLowerCase(java.util.Locale.ROOT).contains("verifypeer=")
                    ? "verifyPeer must be FULL (the default), CA or NONE"
                    : "not a Redis URI (redis://host:port, rediss://..., redis-sentinel://host:port/0#master)");
        }
        if (parsed.getSentinels().isEmpty() && parsed.getSocket() == null
                && (parsed.getHost() == null || parsed.getHost().isBlank())) {
            throw new IllegalArgumentException("no host");
        }
        if (parsed.getHost() != null && parsed.getHost().contains(":") && !parsed.getHost().startsWith("[")) {
            // the parser keeps an unreadable port as part of the host name
            throw new IllegalArgumentException("the port is not a number");
        }
        withoutLibraryInfo(parsed);
        parsed.getSentinels().forEach(RedisUris::withoutLibraryInfo);
        return parsed;
    }

    /**
     * No {@code CLIENT SETINFO} after connecting: it is not needed, and a least-privilege ACL user may not run
     * it (Redis 7.2 on would log each refusal in its {@code ACL LOG}).
     */
    private static void withoutLibraryInfo(RedisURI uri) {
        uri.setLibraryName("");
        uri.setLibraryVersion("");
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
