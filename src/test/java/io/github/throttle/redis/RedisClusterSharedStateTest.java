package io.github.throttle.redis;

import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.SharedStateContract;
import io.github.throttle.testing.RedisClusterProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.time.Duration;

/** Shared state in a Redis Cluster: each key's script runs on the node serving its slot. */
class RedisClusterSharedStateTest extends SharedStateContract {

    private static RedisClusterProcess cluster;
    private static RedisClusterStore store;

    @BeforeAll
    static void start() {
        cluster = RedisClusterProcess.start();
        store = new RedisClusterStore(RedisUris.parse(cluster.seeds(), true), Duration.ofSeconds(5), 0);
    }

    @AfterAll
    static void stop() {
        if (store != null) {
            store.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected SharedState shared() {
        return store;
    }
}
