package io.github.throttle.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How both Redis stores set up Lettuce: commands bounded by the timeout, rejected at once (not queued) while
 * disconnected, reconnects every {@link #RECONNECT_AT_LEAST_EVERY} at the latest.
 */
final class ClientSetup {

    /**
     * Upper bound of the pause between reconnect attempts. After a Sentinel failover, the first attempt
     * that asks the Sentinel finds the new primary: counting resumes at most this long after the failover.
     */
    static final Duration RECONNECT_AT_LEAST_EVERY = Duration.ofMillis(250);

    /** A Cluster client reloads its slot map this often, and whenever a redirection or reconnect says it moved. */
    static final Duration CLUSTER_REFRESH = Duration.ofSeconds(30);

    private ClientSetup() {
    }

    static ClientResources resources() {
        return ClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(10), RECONNECT_AT_LEAST_EVERY, 2, TimeUnit.MILLISECONDS))
                .build();
    }

    static ClientOptions options(Duration timeout) {
        return ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).keepAlive(true).build())
                .build();
    }

    static ClusterClientOptions clusterOptions(Duration timeout) {
        return ClusterClientOptions.builder(options(timeout))
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(CLUSTER_REFRESH)
                        .enableAllAdaptiveRefreshTriggers()
                        // during a migration one refresh per second is enough: redirections are followed meanwhile
                        .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
                        .build())
                .build();
    }
}
