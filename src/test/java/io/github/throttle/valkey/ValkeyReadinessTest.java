package io.github.throttle.valkey;

import io.github.throttle.redis.RedisReadinessTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The readiness check against Valkey ({@link RedisReadinessTest}): the script loaded when the store opens, a
 * restarted (empty) Valkey counted again once the check reaches it, and a user who may not run the script or a
 * full Valkey reported not reachable.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyReadinessTest extends RedisReadinessTest {
}
