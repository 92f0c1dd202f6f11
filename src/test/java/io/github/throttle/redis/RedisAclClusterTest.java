package io.github.throttle.redis;

import io.github.throttle.testing.AclUser;
import io.github.throttle.testing.RedisClusterProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every cluster test (the contract, refunds across slots, a slot migrated under load, scripts flushed, resets)
 * as the README's least-privilege user, created on each node with the README's own {@code ACL SETUSER} line
 * (ACL users are per node); then no node's {@code ACL LOG} shows a refusal, topology refreshes included.
 */
public class RedisAclClusterTest extends RedisClusterStoreTest {

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterProcess.start();
        String command = AclUser.readmeCommand(Path.of("README.md"));
        for (int i = 0; i < cluster.size(); i++) {
            AclUser.run(cluster.node(i), command);
        }
        String seeds = IntStream.range(0, cluster.size()).mapToObj(i -> AclUser.uri(false, cluster.process(i).port()))
                .collect(Collectors.joining(","));
        // the tests' clock is not Redis's: keys live SLACK longer, so that a slow machine never sees a key of a
        // millisecond window expire between two calls of one test
        store = new RedisClusterStore(RedisUris.parse(seeds, true), Duration.ofSeconds(5), RedisClusterStoreTest.SLACK);
        store.prepare();
    }

    @AfterAll
    static void stopCluster() {
        try {
            for (int i = 0; i < cluster.size(); i++) {
                assertEquals(List.of(), cluster.node(i).aclLog(), "ACL LOG of node " + i + ": what the user was refused");
            }
        } finally {
            store.close();
            cluster.close();
        }
    }

    /** The default key prefix: the only keys the user may touch. */
    @Override
    public String freshKey() {
        return "throttle:" + super.freshKey();
    }
}
