package io.github.throttle.testing;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The failover tests' harness ({@link RedisSentinelProcess#startRelayed}): two replicas that replicate through
 * relays acknowledge a write; once both relays are cut, none can; once one is restored, that replica reconnects by
 * itself and acknowledges again. Closing the harness leaves no relay thread behind.
 */
class TcpRelayTest {

    @Test
    void cuttingTheRelaysStopsReplicationAndRestoringOneResumesIt() {
        RedisClient client = RedisClient.create();
        try (RedisSentinelProcess redis = RedisSentinelProcess.startRelayed(2);
             StatefulRedisConnection<String, String> c = client.connect(RedisURI.create(redis.primary().uri()))) {
            assertEquals(2, redis.replicas().size());
            assertEquals(2, redis.relays().size());
            RedisCommands<String, String> primary = c.sync();
            primary.set("k", "1");
            assertEquals(2L, primary.waitForReplication(2, 5000), "both replicas acknowledge through their relays");

            redis.relays().forEach(TcpRelay::cut);
            primary.set("k", "2");
            assertEquals(0L, primary.waitForReplication(1, 300), "no replica can acknowledge while both relays are cut");

            redis.relays().get(0).restore();
            // the replica reconnects on its own (about once a second) and catches up from the primary's backlog
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            long acknowledged;
            while ((acknowledged = primary.waitForReplication(1, 200)) < 1) {
                assertTrue(System.nanoTime() < deadline, "no replica acknowledged within 30 s of the restore");
            }
            assertEquals(1L, acknowledged, "only the restored replica acknowledges");
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        // closed with the harness: each relay's threads end, the copying ones once their sockets are closed
        RedisSentinelProcess.await("no relay thread left", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("tcp-relay-")));
    }
}
