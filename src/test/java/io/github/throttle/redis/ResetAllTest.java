package io.github.throttle.redis;

import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.testing.RedisClusterProcess;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code ThrottleAdmin.resetAll()} in each store: every key of counts under the prefix goes (a Cluster: on every
 * primary, keys of many slots), the shared settings stay, and another prefix's keys are not touched.
 */
class ResetAllTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final KeyCodec CODEC = new KeyCodec("app");
    private static final KeyCodec OTHER = new KeyCodec("other");
    private static final Limit LIMIT = Limit.of(10, 60_000, 1000);
    /** Enough keys for several SCAN pages and every primary of a cluster. */
    private static final int IDENTITIES = 2500;

    @Test
    void onRedisOnlyTheCountsUnderThePrefixGo() {
        try (RedisProcess redis = RedisProcess.start();
             Store store = RedisStores.open(redis.uri(), false, TIMEOUT);
             RedisClient client = RedisClient.create(redis.uri());
             StatefulRedisConnection<String, String> c = client.connect()) {
            fill(store);
            assertEquals(IDENTITIES * 2 + 2, c.sync().dbsize());
            store.resetAll(CODEC).toCompletableFuture().join();
            assertEquals(Set.of(CODEC.sharedKey("settings"), OTHER.key(OTHER.bucketHead("search"), "user:kept")),
                    new TreeSet<>(c.sync().keys("*")));
        }
    }

    @Test
    void onAClusterTheCountsGoFromEveryPrimary() {
        try (RedisClusterProcess cluster = RedisClusterProcess.start();
             Store store = RedisStores.open(cluster.seeds(), true, TIMEOUT)) {
            fill(store);
            RedisClusterClient client = RedisClusterClient.create(cluster.seedUris());
            try (StatefulRedisClusterConnection<String, String> c = client.connect()) {
                assertEquals(IDENTITIES * 2 + 2, c.sync().dbsize());
                store.resetAll(CODEC).toCompletableFuture().join();
                assertEquals(Set.of(CODEC.sharedKey("settings"), OTHER.key(OTHER.bucketHead("search"), "user:kept")),
                        new TreeSet<>(c.sync().keys("*")));
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void inTheEmbeddedStoreTheCountsGoAndTheSettingsStay() {
        try (MemoryStore store = new MemoryStore(InstantSource.system())) {
            fill(store);
            store.resetAll(CODEC).toCompletableFuture().join();
            assertEquals(1, store.size(), "the other prefix's identity");
            assertEquals("pro", store.sharedChanges(CODEC.sharedKey("settings"), 0).toCompletableFuture().join().fields().get("plan:user:ann"));
        }
    }

    /** Counts for many identities in two buckets, one shared setting, and one count under another prefix. */
    private static void fill(Store store) {
        for (String bucket : List.of("search", "export")) {
            String head = CODEC.bucketHead(bucket);
            for (int i = 0; i < IDENTITIES; i++) {
                store.decide(StoreCall.builder(-1, true).add(CODEC.key(head, "user:" + i), LIMIT, 1, 0).build())
                        .toCompletableFuture().join();
            }
        }
        store.decide(StoreCall.builder(-1, true).add(OTHER.key(OTHER.bucketHead("search"), "user:kept"), LIMIT, 1, 0).build())
                .toCompletableFuture().join();
        ((SharedState) store).writeShared(CODEC.sharedKey("settings"), "plan:user:ann", "pro").toCompletableFuture().join();
    }
}
