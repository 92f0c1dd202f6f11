package io.github.throttle.valkey;

import io.github.throttle.redis.ReplicaAcksFailoverTest;
import org.junit.jupiter.api.extension.ExtendWith;

/** Counts survive a failover on Valkey ({@link ReplicaAcksFailoverTest}): Valkey servers and {@code valkey-server --sentinel}. */
@ExtendWith(ValkeyServers.class)
class ValkeyReplicaAcksFailoverTest extends ReplicaAcksFailoverTest {
}
