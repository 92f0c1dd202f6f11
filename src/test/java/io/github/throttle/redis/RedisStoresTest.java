package io.github.throttle.redis;

import io.github.throttle.engine.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How {@code throttle.redis.uri} and {@code throttle.redis.cluster} pick a store; no server is contacted. */
class RedisStoresTest {

    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @Test
    void clusterModeTakesCommaSeparatedSeedsAndNeverShowsTheirPasswords() {
        try (Store store = RedisStores.open("rediss://:s3cret@127.0.0.1:7000, rediss://app:s3cret@127.0.0.1:7001", true, TIMEOUT)) {
            assertInstanceOf(RedisClusterStore.class, store);
            assertTrue(store.describe().contains("127.0.0.1:7000") && store.describe().contains("127.0.0.1:7001"), store.describe());
            assertFalse(store.describe().contains("s3cret"), store.describe());
        }
    }

    @Test
    void aSentinelUriOpensTheStandaloneStore() {
        try (Store store = RedisStores.open("redis-sentinel://:s3cret@127.0.0.1:26379,127.0.0.1:26380/0#mymaster", false, TIMEOUT)) {
            assertInstanceOf(RedisStore.class, store);
            assertTrue(store.describe().contains("mymaster"), store.describe());
            assertFalse(store.describe().contains("s3cret"), store.describe());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "http://:s3cret@127.0.0.1:6379", "redis://:s3cret@127.0.0.1:port", "redis://:s3cret@",
            "redis://:s3cret@127.0.0.1:7000,,redis://127.0.0.1:7001", "redis-sentinel://:s3cret@127.0.0.1:26379#mymaster",
            "redis://:s3/cret@127.0.0.1:notaport", "redis://:s3cret@127.0.0.1:7000,rediss://:s3cret@127.0.0.1:7001",
            "redis://:s3cret@127.0.0.1:99999"})
    void aMalformedClusterUriIsRejectedByNameWithoutItsPassword(String uri) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RedisStores.open(uri, true, TIMEOUT).close());
        assertTrue(e.getMessage().contains("throttle.redis.uri"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cret") || e.getMessage().contains("cret@"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "http://:s3cret@127.0.0.1:6379", "redis://:s3cret@127.0.0.1:port", "redis://:s3cret@"})
    void aMalformedUriIsRejectedByNameWithoutItsPassword(String uri) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RedisStores.open(uri, false, TIMEOUT).close());
        assertTrue(e.getMessage().contains("throttle.redis.uri"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
        assertTrue(e.getCause() == null, "the parser's message may hold the password");
    }
}
