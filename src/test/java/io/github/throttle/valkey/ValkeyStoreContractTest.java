package io.github.throttle.valkey;

import io.github.throttle.redis.RedisStoreTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract and the standalone store's own tests ({@link RedisStoreTest}) on a {@code valkey-server}:
 * the same script, hash layout and expiries, the server's clock, and a call after {@code SCRIPT FLUSH} that
 * meets {@code NOSCRIPT} and loads the script again under the same SHA-1.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyStoreContractTest extends RedisStoreTest {
}
