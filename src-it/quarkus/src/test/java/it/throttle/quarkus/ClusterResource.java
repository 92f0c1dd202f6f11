package it.throttle.quarkus;

import io.github.throttle.testing.RedisClusterProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** A real three-primary Redis Cluster on loopback for the application under test. */
public class ClusterResource implements QuarkusTestResourceLifecycleManager {

    static volatile RedisClusterProcess cluster;

    @Override
    public Map<String, String> start() {
        cluster = RedisClusterProcess.start();
        return Map.of("throttle.redis.cluster", "true", "throttle.redis.uri", cluster.seeds());
    }

    @Override
    public void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
