package io.github.throttle.valkey;

import io.github.throttle.redis.RedisAclRefusalTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Valkey user missing one of the README's grants, or using keys outside its pattern, or a wrong password
 * ({@link RedisAclRefusalTest}): Valkey's {@code NOPERM} and {@code WRONGPASS} replies get the failure policy and
 * one {@code ERROR} naming what was refused, as Redis's do.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyAclRefusalTest extends RedisAclRefusalTest {
}
