package io.github.throttle.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.throttle.bench.Windows.Window;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/** Bucket4j, the comparison: one greedy-refill bandwidth per window. */
final class Bucket4j {

    private Bucket4j() {
    }

    static BucketConfiguration configuration(Window[] windows) {
        var b = BucketConfiguration.builder();
        for (Window w : windows) {
            b.addLimit(bandwidth(w));
        }
        return b.build();
    }

    static Bandwidth bandwidth(Window w) {
        return Bandwidth.builder().capacity(w.limit()).refillGreedy(w.limit(), Duration.ofMillis(w.durationMillis())).build();
    }

    /** Local buckets, one per key in a {@code ConcurrentHashMap}, each built on first use. */
    static final class Local {
        private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
        private final Window[] windows;

        Local(Window[] windows) {
            this.windows = windows;
        }

        Bucket get(String key) {
            Bucket b = buckets.get(key);
            if (b == null) {
                b = buckets.computeIfAbsent(key, k -> {
                    var builder = Bucket.builder();
                    for (Window w : windows) {
                        builder.addLimit(bandwidth(w));
                    }
                    return builder.build();
                });
            }
            return b;
        }
    }

    /** Bucket4j's Lettuce proxy (compare-and-swap), on a connection of its own; entries expire 10 s after refilling. */
    static final class Lettuce implements AutoCloseable {
        private final RedisClient client;
        private final StatefulRedisConnection<byte[], byte[]> connection;
        final ProxyManager<byte[]> proxy;

        Lettuce(String uri) {
            this.client = RedisClient.create(uri);
            this.connection = client.connect(ByteArrayCodec.INSTANCE);
            this.proxy = Bucket4jLettuce.casBasedBuilder(connection)
                    .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                    .build();
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown();
        }
    }
}
