package io.github.throttle.valkey;

import io.github.throttle.redis.RedisAclUserTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract as the README's least-privilege user, created with the README's own {@code ACL SETUSER}
 * line on a {@code valkey-server} ({@link RedisAclUserTest}); Valkey's {@code ACL LOG} shows no refusal, also
 * when the script is flushed and loaded again as that user.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyAclUserTest extends RedisAclUserTest {
}
