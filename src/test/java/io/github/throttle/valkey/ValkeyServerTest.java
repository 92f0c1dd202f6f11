package io.github.throttle.valkey;

import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.ServerKind;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the Valkey suites stand on: under {@link ValkeyServers} the launchers start Valkey 8 (its {@code INFO server}
 * says {@code server_name:valkey}, {@code valkey_version:8.…}), and after the class they start Redis again.
 */
@ExtendWith(ValkeyServers.class)
class ValkeyServerTest {

    @Test
    void theLaunchersStartValkeyEight() {
        assertEquals(ServerKind.VALKEY, ServerKind.current());
        RedisClient client = RedisClient.create();
        try (RedisProcess valkey = RedisProcess.start();
             StatefulRedisConnection<String, String> c = client.connect(io.lettuce.core.RedisURI.create(valkey.uri()))) {
            String info = c.sync().info("server");
            assertTrue(info.contains("server_name:valkey"), info);
            assertTrue(info.contains("valkey_version:8."), info);
        } finally {
            client.shutdown();
        }
    }
}
