package io.github.throttle.valkey;

import io.github.throttle.redis.ReplicaAcksClusterTest;
import org.junit.jupiter.api.extension.ExtendWith;

/** Counts survive a Cluster failover on Valkey ({@link ReplicaAcksClusterTest}). */
@ExtendWith(ValkeyServers.class)
class ValkeyReplicaAcksClusterTest extends ReplicaAcksClusterTest {
}
