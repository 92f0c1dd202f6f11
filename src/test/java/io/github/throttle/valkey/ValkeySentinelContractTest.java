package io.github.throttle.valkey;

import io.github.throttle.redis.RedisSentinelContractTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract through a {@code redis-sentinel://} URI on Valkey ({@link RedisSentinelContractTest}): a
 * Valkey primary and replica, and {@code valkey-server --sentinel} naming the primary.
 */
@ExtendWith(ValkeyServers.class)
class ValkeySentinelContractTest extends RedisSentinelContractTest {
}
