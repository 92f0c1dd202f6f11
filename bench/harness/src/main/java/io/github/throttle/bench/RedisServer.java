package io.github.throttle.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A {@code redis-server} from PATH on a free loopback port, without persistence, plus an admin connection. */
final class RedisServer implements AutoCloseable {

    final int port;
    final String version;
    private final Process process;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    final RedisCommands<String, String> admin;

    RedisServer() throws IOException, InterruptedException {
        this(List.of());
    }

    /** @param wrapper a command that runs redis-server (valgrind ...), or none */
    RedisServer(List<String> wrapper) throws IOException, InterruptedException {
        this(wrapper, List.of());
    }

    /** @param args more arguments of redis-server ({@code --replicaof host port}) */
    RedisServer(List<String> wrapper, List<String> args) throws IOException, InterruptedException {
        this.port = freePort();
        Path dir = Files.createTempDirectory("throttle-bench-redis-");
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--loglevel", "warning"));
        cmd.addAll(args);
        this.process = new ProcessBuilder(cmd)
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        RedisClient c = null;
        StatefulRedisConnection<String, String> conn = null;
        for (int i = 0; i < 300 && conn == null; i++) {
            try {
                c = RedisClient.create(uri());
                conn = c.connect();
            } catch (RuntimeException e) {
                if (c != null) {
                    c.shutdown();
                }
                Thread.sleep(100);
            }
        }
        if (conn == null) {
            throw new IllegalStateException("redis-server did not start on port " + port);
        }
        this.client = c;
        this.connection = conn;
        this.admin = conn.sync();
        this.version = info("server").get("redis_version");
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    Map<String, String> info(String section) {
        Map<String, String> m = new HashMap<>();
        for (String line : admin.info(section).split("\r?\n")) {
            int i = line.indexOf(':');
            if (i > 0 && !line.startsWith("#")) {
                m.put(line.substring(0, i), line.substring(i + 1).trim());
            }
        }
        return m;
    }

    /** used_cpu_sys + used_cpu_user, seconds. */
    double cpuSeconds() {
        Map<String, String> cpu = info("cpu");
        return Double.parseDouble(cpu.get("used_cpu_sys")) + Double.parseDouble(cpu.get("used_cpu_user"));
    }

    /** Calls per command name since the last CONFIG RESETSTAT (commands run by scripts included). */
    Map<String, Long> commandCalls() {
        Map<String, Long> calls = new HashMap<>();
        for (Map.Entry<String, String> e : info("commandstats").entrySet()) {
            String v = e.getValue();
            int a = v.indexOf("calls=");
            int b = v.indexOf(',', a);
            calls.put(e.getKey().substring("cmdstat_".length()), Long.parseLong(v.substring(a + 6, b)));
        }
        return calls;
    }

    /** Script runs ({@code EVALSHA} and {@code EVAL}) since the last CONFIG RESETSTAT. */
    long scriptRuns() {
        Map<String, Long> calls = commandCalls();
        return calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
        process.destroy();
    }
}
