package io.github.throttle.testing;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Sentinel-managed primary on loopback ports, for tests: a primary, one replica ({@code --replicaof})
 * and one sentinel ({@code redis-server <conf> --sentinel}, quorum 1) that declares the primary down after
 * {@value #DOWN_AFTER_MILLIS} ms. Ready once the replica is in sync and the sentinel knows it, so that a
 * failover can promote it. With TLS ({@link #startTls}), each of them also serves TLS, replication and the
 * sentinel's links go over TLS, and the sentinel names the primary's TLS port. All three are of the
 * {@link ServerKind#current() current kind}: on Valkey, {@code valkey-server} and {@code valkey-server <conf>
 * --sentinel}. Failing to start is an error, never a reason to skip.
 */
public final class RedisSentinelProcess implements AutoCloseable {

    public static final String MASTER = "mymaster";
    public static final long DOWN_AFTER_MILLIS = 1000;

    private final RedisClient admin = RedisClient.create();
    private final TestCertificates.Server tls;
    /** How many replicas, each replicating through a {@link TcpRelay} of its own; 0: one replica, linked directly. */
    private final int relayed;
    private RedisProcess primary;
    private final List<RedisProcess> replicas = new ArrayList<>();
    private final List<TcpRelay> relays = new ArrayList<>();
    private RedisProcess sentinel;
    private StatefulRedisSentinelConnection<String, String> sentinelConnection;

    private RedisSentinelProcess(TestCertificates.Server tls, int relayed) {
        this.tls = tls;
        this.relayed = relayed;
    }

    public static RedisSentinelProcess start() {
        return started(new RedisSentinelProcess(null, 0));
    }

    /**
     * A primary, {@code replicas} replicas each replicating through a {@link TcpRelay} of its own (which the test
     * can {@linkplain TcpRelay#cut() cut}), and a sentinel. After a failover, the sentinel points the other replicas
     * at the promoted one directly, not through a relay.
     */
    public static RedisSentinelProcess startRelayed(int replicas) {
        return started(new RedisSentinelProcess(null, replicas));
    }

    /** Primary, replica and sentinel serving TLS with {@code certificate} besides their plain ports. */
    public static RedisSentinelProcess startTls(TestCertificates.Server certificate) {
        return started(new RedisSentinelProcess(certificate, 0));
    }

    private static RedisSentinelProcess started(RedisSentinelProcess s) {
        try {
            s.launch();
            return s;
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
    }

    private void launch() {
        // with relays, a full sync starts at once instead of after the default 5 s (diskless sync waits for more
        // replicas): at the start, after a restored link, and when the sibling of a promoted replica follows it
        String[] noSyncDelay = relayed == 0 ? new String[0] : new String[] {"--repl-diskless-sync-delay", "0"};
        primary = tls == null ? RedisProcess.start(noSyncDelay) : RedisProcess.startTls(tls);
        if (relayed == 0) {
            replicas.add(tls == null ? RedisProcess.start("--replicaof", "127.0.0.1", Integer.toString(primary.port()))
                    : RedisProcess.startTls(tls, "--replicaof", "127.0.0.1", Integer.toString(primary.tlsPort()), "--tls-replication", "yes"));
        }
        for (int i = 0; i < relayed; i++) {
            TcpRelay relay = TcpRelay.start(primary.port());
            relays.add(relay);
            replicas.add(RedisProcess.start("--replicaof", "127.0.0.1", Integer.toString(relay.port()),
                    "--repl-diskless-sync-delay", "0"));
        }
        for (RedisProcess replica : replicas) {
            try (StatefulRedisConnection<String, String> c = admin.connect(RedisURI.create(replica.uri()))) {
                await("replica in sync", () -> c.sync().info("replication").contains("master_link_status:up"));
            }
        }
        Path conf;
        try {
            // the sentinel rewrites its configuration file: it must be a writable file of its own
            conf = Files.createTempDirectory("throttle-sentinel-").resolve("sentinel.conf");
            Files.writeString(conf, String.join("\n",
                    tls == null ? "" : "tls-replication yes",
                    "sentinel monitor " + MASTER + " 127.0.0.1 " + (tls == null ? primary.port() : primary.tlsPort()) + " 1",
                    "sentinel down-after-milliseconds " + MASTER + " " + DOWN_AFTER_MILLIS,
                    "sentinel failover-timeout " + MASTER + " 10000",
                    "sentinel parallel-syncs " + MASTER + " 1",
                    ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sentinel = tls == null ? RedisProcess.startWithConfig(conf, "--sentinel")
                : RedisProcess.startTlsWithConfig(conf, tls, "--sentinel");
        sentinelConnection = admin.connectSentinel(RedisURI.create("redis://127.0.0.1:" + sentinel.port()));
        sentinelConnection.setTimeout(Duration.ofSeconds(5));
        await("sentinel knows the replicas", () -> {
            List<Map<String, String>> known = sentinelConnection.sync().replicas(MASTER);
            return known.size() == replicas.size() && known.stream().noneMatch(r -> r.get("flags").contains("down")
                    || r.get("flags").contains("disconnected"));
        });
    }

    /** {@code throttle.redis.uri} for this primary. */
    public String uri() {
        return tls == null ? "redis-sentinel://127.0.0.1:" + sentinel.port() + "/0#" + MASTER
                : "rediss-sentinel://127.0.0.1:" + sentinel.tlsPort() + "/0#" + MASTER;
    }

    public RedisProcess primary() {
        return primary;
    }

    public RedisProcess replica() {
        return replicas.get(0);
    }

    public List<RedisProcess> replicas() {
        return List.copyOf(replicas);
    }

    /** The relay of each replica ({@link #startRelayed}), in the order of {@link #replicas()}. */
    public List<TcpRelay> relays() {
        return List.copyOf(relays);
    }

    /** The port of the primary the sentinel names now (with TLS: its TLS port). */
    public int primaryPort() {
        SocketAddress a = sentinelConnection.sync().getMasterAddrByName(MASTER);
        return ((InetSocketAddress) a).getPort();
    }

    public String sentinelLog() {
        return sentinel.log();
    }

    static void await(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not within 30 s: " + what);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void close() {
        try {
            if (sentinelConnection != null) {
                sentinelConnection.close();
            }
            admin.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        } finally {
            // the servers end even when closing a client fails
            relays.forEach(TcpRelay::close);
            List<RedisProcess> all = new ArrayList<>();
            all.add(sentinel);
            all.addAll(replicas);
            all.add(primary);
            for (RedisProcess p : all) {
                if (p != null) {
                    p.close();
                }
            }
        }
    }
}
