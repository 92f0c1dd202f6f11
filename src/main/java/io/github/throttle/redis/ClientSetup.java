package io.github.throttle.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How both Redis stores set up Lettuce: commands bounded by the timeout (script runs and the {@code WAIT} behind
 * them: by {@link #replyDeadline}),
 * rejected at once (not queued) while disconnected, reconnects every {@link #RECONNECT_AT_LEAST_EVERY} at the
 * latest.
 *
 * <p>At most once: a command written but not answered when the connection drops fails then
 * ({@code REJECT_COMMANDS} fails what the connection held, rather than keeping it to send again after the
 * reconnect); only a command whose write itself failed, which Redis never received whole, is sent again. So a
 * script run never executes twice ({@code RunsAtMostOnceTest}).
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

    /**
     * How long a script run waits for its reply: well past the timeout its callers wait, so that a reply that comes
     * after they were answered without it is still read, and what it took given back ({@link GroupCommit}). Only a
     * reply later than this is lost (what it took then stays counted until it leaves its window, or its lease ends).
     */
    static Duration replyDeadline(Duration timeout) {
        Duration tenfold = timeout.multipliedBy(10);
        return tenfold.compareTo(Duration.ofSeconds(10)) < 0 ? Duration.ofSeconds(10) : tenfold;
    }

    static ClientOptions options(Duration timeout) {
        long commandNanos = timeout.toNanos();
        long scriptNanos = replyDeadline(timeout).toNanos();
        return ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.builder().timeoutSource(new TimeoutOptions.TimeoutSource() {
                    @Override
                    public long getTimeout(RedisCommand<?, ?, ?> command) {
                        // a WAIT behind a run is read as long as the run's reply: it says whether that reply stands
                        return command.getType() == CommandType.EVALSHA || command.getType() == CommandType.EVAL
                                || command.getType() == CommandType.WAIT ? scriptNanos : commandNanos;
                    }

                    @Override
                    public TimeUnit getTimeUnit() {
                        return TimeUnit.NANOSECONDS;
                    }
                }).build())
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
