package io.github.throttle.valkey;

import io.github.throttle.redis.RedisAclClusterTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every cluster test as the README's least-privilege user on each node of a Valkey Cluster
 * ({@link RedisAclClusterTest}); no node's {@code ACL LOG} shows a refusal.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyAclClusterTest extends RedisAclClusterTest {
}
