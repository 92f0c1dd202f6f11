package io.github.throttle.valkey;

import io.github.throttle.redis.RedisMemoryTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Valkey at {@code maxmemory} under a flood of new identities ({@link RedisMemoryTest}): with {@code volatile-ttl}
 * it evicts and no call fails; with {@code noeviction} its {@code OOM} reply goes through the failure policy.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyMemoryTest extends RedisMemoryTest {
}
