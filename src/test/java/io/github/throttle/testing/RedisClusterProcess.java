package io.github.throttle.testing;

import io.lettuce.core.MigrateArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A real Redis Cluster of three primaries (no replicas) on loopback ports, for tests: three
 * {@link RedisProcess}es with {@code --cluster-enabled yes}, each given a third of the 16384 slots with
 * {@code CLUSTER ADDSLOTS} and introduced with {@code CLUSTER MEET} (commands of Redis 3 on, so the
 * redis-server shipped in the test jar works too). Ready once every node reports {@code cluster_state:ok}.
 * With TLS ({@link #startTls}), the nodes also serve TLS, talk to each other over TLS ({@code tls-cluster}) and
 * name their TLS ports to TLS clients; administration stays on the plain ports. The nodes are of the
 * {@link ServerKind#current() current kind} (Valkey Cluster takes the same commands; no cli is needed).
 * Failing to start is an error, never a reason to skip. {@link #startWithReplicas()} also gives each primary one
 * replica ({@code CLUSTER REPLICATE}), for failovers.
 */
public final class RedisClusterProcess implements AutoCloseable {

    public static final int SLOTS = 16384;
    private static final int PRIMARIES = 3;

    private final List<RedisProcess> nodes = new ArrayList<>();
    private final List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
    private final List<String> ids = new ArrayList<>();
    private final RedisClient admin = RedisClient.create();
    private final TestCertificates.Server tls;
    private final boolean replicas;

    private RedisClusterProcess(TestCertificates.Server tls, boolean replicas) {
        this.tls = tls;
        this.replicas = replicas;
    }

    public static RedisClusterProcess start() {
        return started(new RedisClusterProcess(null, false));
    }

    /**
     * Three primaries, each with one replica: node {@code size() + i} replicates primary {@code i}. Ready once every
     * replica's link is up and every primary counts its replica.
     */
    public static RedisClusterProcess startWithReplicas() {
        return started(new RedisClusterProcess(null, true));
    }

    /** Three primaries serving TLS with {@code certificate}, besides their plain ports. */
    public static RedisClusterProcess startTls(TestCertificates.Server certificate) {
        return started(new RedisClusterProcess(certificate, false));
    }

    private static RedisClusterProcess started(RedisClusterProcess c) {
        try {
            c.launch();
            return c;
        } catch (RuntimeException | Error e) {
            c.close();
            throw e;
        }
    }

    private void launch() {
        for (int i = 0; i < (replicas ? 2 * PRIMARIES : PRIMARIES); i++) {
            nodes.add(startNode());
        }
        for (RedisProcess node : nodes) {
            StatefulRedisConnection<String, String> c = admin.connect(RedisURI.create(node.uri()));
            c.setTimeout(Duration.ofSeconds(10));
            connections.add(c);
            ids.add(c.sync().clusterMyId());
        }
        for (int i = 0; i < PRIMARIES; i++) {
            int from = SLOTS * i / PRIMARIES;
            int to = SLOTS * (i + 1) / PRIMARIES;
            node(i).clusterAddSlots(IntStream.range(from, to).toArray());
        }
        for (int i = 1; i < nodes.size(); i++) {
            // with tls-cluster, nodes know each other by their TLS ports
            node(0).clusterMeet("127.0.0.1", tls == null ? nodes.get(i).port() : nodes.get(i).tlsPort());
        }
        awaitOk();
        if (replicas) {
            for (int i = 0; i < PRIMARIES; i++) {
                int replica = PRIMARIES + i;
                String primary = id(i);
                // a node learns of the primary by gossip before it may follow it
                await(() -> node(replica).clusterNodes().contains(primary), "node " + replica + " knows primary " + i);
                node(replica).clusterReplicate(primary);
            }
            for (int i = 0; i < PRIMARIES; i++) {
                int primary = i;
                await(() -> node(PRIMARIES + primary).info("replication").contains("master_link_status:up")
                        && node(primary).info("replication").contains("connected_slaves:1"), "replica of primary " + i + " in sync");
            }
            // every node, replicas too, sees every slot served: a client may ask any of them for the slot map
            for (int i = 0; i < nodes.size(); i++) {
                int node = i;
                await(() -> node(node).clusterInfo().contains("cluster_state:ok"), "node " + i + " sees cluster_state:ok");
            }
        }
    }

    /** The replica of primary {@code i} ({@link #startWithReplicas()}): plain commands on it. */
    public RedisCommands<String, String> replicaOf(int i) {
        return node(PRIMARIES + i);
    }

    /** The process of the replica of primary {@code i} ({@link #startWithReplicas()}). */
    public RedisProcess replicaProcess(int i) {
        return process(PRIMARIES + i);
    }

    private void await(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not within 30 s: " + what);
            }
            poll();
        }
    }

    /**
     * A node on a port whose cluster bus port (port + 10000) is valid and free too; with TLS, that port is the
     * TLS one, and the bus runs over TLS ({@code tls-cluster}).
     */
    private RedisProcess startNode() {
        RuntimeException last = null;
        for (int attempt = 0; attempt < 10; attempt++) {
            int port = RedisProcess.freePort();
            if (port + 10000 > 65535 || !free(port + 10000)) {
                continue;
            }
            try {
                String[] args = {"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000"};
                if (replicas) {
                    // a full sync starts at once instead of after the default 5 s (diskless sync waits for more
                    // replicas): at the start, and when a demoted primary follows the replica that took over
                    args = concat(args, "--repl-diskless-sync-delay", "0");
                }
                return tls == null ? RedisProcess.startOn(port, args)
                        : RedisProcess.startTlsOn(port, tls, concat(args, "--tls-cluster", "yes"));
            } catch (RuntimeException e) {
                last = e;
            }
        }
        throw new IllegalStateException("could not start a cluster node", last);
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits until every node sees every slot served ({@code cluster_state:ok}) and knows every primary. */
    public void awaitOk() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            boolean ok = true;
            for (int i = 0; i < PRIMARIES && ok; i++) {
                ok = node(i).clusterInfo().contains("cluster_state:ok")
                        && node(i).clusterNodes().lines().filter(l -> l.contains("master") && !l.contains("fail")
                        && !l.contains("handshake")).count() >= PRIMARIES;
            }
            if (ok) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("cluster not ok within 30 s: " + IntStream.range(0, PRIMARIES)
                        .mapToObj(i -> node(i).clusterInfo().lines().findFirst().orElse("") + "\n" + node(i).clusterNodes())
                        .collect(Collectors.joining("\n")));
            }
            poll();
        }
    }

    private static void poll() {
        try {
            TimeUnit.MILLISECONDS.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Comma-separated seed URIs, as {@code throttle.redis.uri} takes them. */
    public String seeds() {
        return nodes.stream().map(this::clientUri).collect(Collectors.joining(","));
    }

    public List<RedisURI> seedUris() {
        return nodes.stream().map(n -> RedisURI.create(clientUri(n))).collect(Collectors.toList());
    }

    /** How a client reaches {@code node}: over TLS when the cluster serves it. */
    private String clientUri(RedisProcess node) {
        return tls == null ? node.uri() : node.tlsUri();
    }

    public int size() {
        return PRIMARIES;
    }

    /** Plain commands on node {@code i} (no redirections followed). */
    public RedisCommands<String, String> node(int i) {
        return connections.get(i).sync();
    }

    public RedisProcess process(int i) {
        return nodes.get(i);
    }

    public String id(int i) {
        return ids.get(i);
    }

    /** The node that, in its own view, serves {@code slot}. */
    public int owner(int slot) {
        for (int i = 0; i < PRIMARIES; i++) {
            String myself = node(i).clusterNodes().lines().filter(l -> l.contains("myself")).findFirst().orElseThrow();
            String[] f = myself.split(" ");
            for (int j = 8; j < f.length; j++) {
                if (f[j].startsWith("[")) {
                    continue;  // a slot being imported or migrated, not served yet
                }
                String[] range = f[j].split("-");
                int from = Integer.parseInt(range[0]);
                int to = range.length == 2 ? Integer.parseInt(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return i;
                }
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    /**
     * Moves {@code slot} and its keys from node {@code from} to node {@code to} the way {@code redis-cli
     * --cluster reshard} does: IMPORTING, MIGRATING, MIGRATE of the keys, then SETSLOT NODE on every node.
     * {@code between} runs between the steps, so that callers can let traffic meet each state.
     */
    public void migrate(int slot, int from, int to, Runnable between) {
        node(to).clusterSetSlotImporting(slot, id(from));
        node(from).clusterSetSlotMigrating(slot, id(to));
        between.run();
        while (true) {
            List<String> keys = node(from).clusterGetKeysInSlot(slot, 100);
            if (keys.isEmpty()) {
                break;
            }
            // with tls-cluster, MIGRATE speaks TLS
            node(from).migrate("127.0.0.1", tls == null ? nodes.get(to).port() : nodes.get(to).tlsPort(), 0, 5000,
                    MigrateArgs.Builder.keys(keys));
            between.run();
        }
        node(to).clusterSetSlotNode(slot, id(to));
        node(from).clusterSetSlotNode(slot, id(to));
        for (int i = 0; i < PRIMARIES; i++) {
            if (i != from && i != to) {
                node(i).clusterSetSlotNode(slot, id(to));
            }
        }
        between.run();
    }

    @Override
    public void close() {
        try {
            for (StatefulRedisConnection<String, String> c : connections) {
                c.close();
            }
            admin.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        } finally {
            // the nodes end even when closing a client fails
            for (RedisProcess n : nodes) {
                n.close();
            }
        }
    }
}
