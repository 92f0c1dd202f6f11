package io.github.throttle.valkey;

import io.github.throttle.redis.RedisTlsStoreTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract over TLS ({@code rediss://}, password) on a {@code valkey-server} ({@link RedisTlsStoreTest}).
 */
@ExtendWith(ValkeyServers.class)
class ValkeyTlsStoreTest extends RedisTlsStoreTest {
}
