package io.github.throttle.valkey;

import io.github.throttle.redis.RedisClusterStoreTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract on a Valkey Cluster of three primaries ({@link RedisClusterStoreTest}): keys of one slot and
 * across slots, per-node scripts flushed and loaded again, a slot migrated under load.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyClusterContractTest extends RedisClusterStoreTest {
}
