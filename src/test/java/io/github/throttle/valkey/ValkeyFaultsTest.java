package io.github.throttle.valkey;

import io.github.throttle.redis.RedisFaultsTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Valkey going away, stalling, restarting empty (the script is gone: {@code NOSCRIPT}, loaded again) or dropping
 * its scripts under load ({@code SCRIPT FLUSH}), as {@link RedisFaultsTest} shows them on Redis.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyFaultsTest extends RedisFaultsTest {
}
