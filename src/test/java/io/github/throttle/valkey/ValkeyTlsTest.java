package io.github.throttle.valkey;

import io.github.throttle.redis.RedisTlsTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sentinel and Cluster over TLS on Valkey, and the servers a client must refuse (an untrusted CA, an expired
 * certificate, another host's), as {@link RedisTlsTest} shows them on Redis.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyTlsTest extends RedisTlsTest {
}
