package it.throttle.quarkus;

import io.github.throttle.testing.RedisClusterProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** A real three-primary Redis Cluster on loopback for the application under test. */
public class ClusterResource implements QuarkusTestResourceLifecycleManager {

    /** This instance's cluster: each start has its own, stopped by the same instance. */
    private RedisClusterProcess cluster;

    @Override
    public Map<String, String> start() {
        cluster = RedisClusterProcess.start();
        return Map.of("throttle.redis.cluster", "true", "throttle.redis.uri", cluster.seeds());
    }

    @Override
    public void stop() {
        if (cluster == null) {
            return;
        }
        try {
            cluster.close();
        } finally {
            // the nodes go even when closing the cluster's own clients failed
            for (int i = 0; i < cluster.size(); i++) {
                cluster.process(i).kill();
            }
        }
    }
}
