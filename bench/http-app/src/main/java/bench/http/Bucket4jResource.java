package bench.http;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Optional;

/**
 * {@code /throttled} as Bucket4j's documentation shows it over Redis: a Lettuce-based proxy manager (compare
 * and swap), one bucket per API key with the same three limits as greedy-refill bandwidths, and the remaining
 * tokens on allowed answers ({@code X-Rate-Limit-Remaining}). Only when the app counts in Redis
 * ({@code throttle.redis.uri}).
 */
@Path("/")
@ApplicationScoped
public class Bucket4jResource {

    private static final BucketConfiguration LIMITS = BucketConfiguration.builder()
            .addLimit(limit -> limit.capacity(1_000_000).refillGreedy(1_000_000, Duration.ofSeconds(1)))
            .addLimit(limit -> limit.capacity(1_000_000_000).refillGreedy(1_000_000_000, Duration.ofMinutes(1)))
            .addLimit(limit -> limit.capacity(1_000_000_000).refillGreedy(1_000_000_000, Duration.ofHours(1)))
            .build();

    private final RedisClient client;
    private final StatefulRedisConnection<String, byte[]> connection;
    private final ProxyManager<String> buckets;

    Bucket4jResource(@ConfigProperty(name = "throttle.redis.uri") Optional<String> uri) {
        this.client = uri.map(RedisClient::create).orElse(null);
        this.connection = client == null ? null : client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
        this.buckets = connection == null ? null : Bucket4jLettuce.casBasedBuilder(connection)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                .build();
    }

    @GET
    @Path("bucket4j")
    public Response throttled(@HeaderParam("X-API-Key") String apiKey) {
        if (buckets == null) {
            return Response.status(Response.Status.NOT_FOUND).entity("no throttle.redis.uri\n").build();
        }
        ConsumptionProbe probe = buckets.builder().build("bucket4j:" + apiKey, () -> LIMITS).tryConsumeAndReturnRemaining(1);
        if (!probe.isConsumed()) {
            return Response.status(429).header("X-Rate-Limit-Retry-After-Seconds", probe.getNanosToWaitForRefill() / 1_000_000_000).build();
        }
        return Response.ok("hello\n").header("X-Rate-Limit-Remaining", probe.getRemainingTokens()).build();
    }

    @PreDestroy
    void close() {
        if (client != null) {
            connection.close();
            client.shutdown();
        }
    }
}
