package io.github.throttle.redis;

import io.github.throttle.engine.Store;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslVerifyMode;

import java.time.Duration;

/** Opens the Redis store that {@code throttle.redis.*} describes. */
public final class RedisStores {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

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
        return open(uri, cluster, timeout, 0, ReplicationEvents.NONE);
    }

    /**
     * As above, with decisions held by {@code replicaAcks} replicas before callers are told
     * ({@code throttle.redis.replica-acks}).
     *
     * @param events told of each wait for replicas and of each promotion seen
     */
    public static Store open(String uri, boolean cluster, Duration timeout, int replicaAcks, ReplicationEvents events) {
        try {
            var parsed = RedisUris.parse(uri, cluster);
            warnIfUnverified(parsed.get(0));
            Store store = cluster ? new RedisClusterStore(parsed, timeout, 0, replicaAcks, events)
                    : new RedisStore(parsed.get(0), timeout, 0, replicaAcks, events);
            // connect and load the script now, in the background, so that the first calls need not wait for a TLS
            // handshake, a cluster's slot map or a NOSCRIPT; a failure here only means the first call connects
            store.prepare();
            return store;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("throttle.redis.uri=" + RedisUris.redact(uri) + " is invalid: " + e.getMessage());
        }
    }

    /** The {@link Store#kind()} of the store {@link #open} opens for this URI, for metrics made before it is open. */
    public static String kind(String uri, boolean cluster) {
        return cluster ? "redis-cluster" : RedisUris.parse(uri, false).get(0).getSentinels().isEmpty() ? "redis" : "redis-sentinel";
    }

    /** TLS checks the server's certificate and host name unless the URI says otherwise: then say so once, at start-up. */
    private static void warnIfUnverified(RedisURI uri) {
        if (!uri.isSsl() || uri.getVerifyMode() == SslVerifyMode.FULL) {
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "Throttle: TLS to " + RedisUris.redact(uri) + (uri.getVerifyMode() == SslVerifyMode.NONE
                ? " does not verify the server's certificate (verifyPeer=NONE): whoever can reach the network path can pose as Redis"
                : " does not check that the server's certificate names its host (verifyPeer=CA): any server with a certificate"
                + " from a trusted CA can pose as Redis"));
    }
}
