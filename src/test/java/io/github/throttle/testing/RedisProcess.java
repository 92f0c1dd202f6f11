package io.github.throttle.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} (or {@code valkey-server}) on a free loopback port, for tests. The server is of the
 * {@link ServerKind#current() current kind} when started, its binary found by {@link ServerKind#binary()}: Redis
 * unless the test class runs on Valkey. A Valkey server must say so in {@code INFO server}
 * ({@code server_name:valkey}), else it fails to start. Failing to start is an error, never a reason to skip.
 *
 * <p>No server outlives the JVM that started it: a shutdown hook kills the servers still running when the JVM
 * exits (a test that failed before closing its server, Ctrl-C), and each server runs under a watchdog that
 * kills it once the JVM is gone even when the JVM was killed outright ({@code SIGKILL}), which no hook survives.
 */
public final class RedisProcess implements AutoCloseable {

    /**
     * Run by {@code sh -c} with the JVM's pid and the server's command line: a background loop checks every
     * second that the JVM is still there and kills the server (SIGKILL) once it is not; it ends with the server.
     * The shell then becomes the server ({@code exec}), so the started process is the server itself.
     */
    private static final String WATCHDOG = """
            jvm=$1; shift
            server=$$
            (while kill -0 "$server" 2>/dev/null; do
                kill -0 "$jvm" 2>/dev/null || { kill -9 "$server"; exit; }
                sleep 1
            done) &
            exec "$@"
            """;

    /** Every server started and not killed yet, for the shutdown hook. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly),
                "redis-server killer"));
    }

    private final ServerKind kind = ServerKind.current();
    private final Path configFile;
    private final List<String> extraArgs;
    private final Path dir;
    private final TestCertificates.Server tls;
    private final int requestedTlsPort;
    private int port;
    private int tlsPort;
    private Process process;

    private RedisProcess(int port, Path configFile, TestCertificates.Server tls, int tlsPort, List<String> extraArgs)
            throws IOException {
        this.port = port;
        this.configFile = configFile;
        this.tls = tls;
        this.requestedTlsPort = tlsPort;
        this.extraArgs = extraArgs;
        this.dir = Files.createTempDirectory("throttle-redis-");
    }

    /** Starts a server without persistence on a free port. */
    public static RedisProcess start(String... extraArgs) {
        return startOn(0, extraArgs);
    }

    /** Starts a server on {@code port} (0 = any free port). */
    public static RedisProcess startOn(int port, String... extraArgs) {
        return launched(port, null, null, 0, extraArgs);
    }

    /**
     * Starts a server that also serves TLS with {@code certificate} on a second free port ({@link #tlsPort()}),
     * without asking clients for certificates. The plain port stays for readiness and administration.
     */
    public static RedisProcess startTls(TestCertificates.Server certificate, String... extraArgs) {
        return launched(0, null, certificate, 0, extraArgs);
    }

    /** {@link #startTls} with TLS on {@code tlsPort}. */
    public static RedisProcess startTlsOn(int tlsPort, TestCertificates.Server certificate, String... extraArgs) {
        return launched(0, null, certificate, tlsPort, extraArgs);
    }

    /**
     * Starts a server on a free port that reads {@code configFile} first (as {@code redis-server <file>}),
     * e.g. a Sentinel with {@code --sentinel}; the server may rewrite the file.
     */
    public static RedisProcess startWithConfig(Path configFile, String... extraArgs) {
        return launched(0, configFile, null, 0, extraArgs);
    }

    /** {@link #startWithConfig} serving TLS too, as {@link #startTls} does. */
    public static RedisProcess startTlsWithConfig(Path configFile, TestCertificates.Server certificate, String... extraArgs) {
        return launched(0, configFile, certificate, 0, extraArgs);
    }

    private static RedisProcess launched(int port, Path configFile, TestCertificates.Server tls, int tlsPort,
                                         String... extraArgs) {
        try {
            RedisProcess r = new RedisProcess(port, configFile, tls, tlsPort, List.of(extraArgs));
            r.launch();
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void launch() throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int p = port != 0 ? port : freePort();
            List<String> cmd = new ArrayList<>(List.of(kind.binary().toString()));
            if (configFile != null) {
                cmd.add(configFile.toString());
            }
            cmd.addAll(Arrays.asList(
                    "--port", Integer.toString(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--daemonize", "no", "--protected-mode", "no", "--dir", dir.toString(), "--logfile", ""));
            if (tls != null) {
                // a restart keeps the TLS port, as it keeps the plain one
                tlsPort = process != null ? tlsPort : requestedTlsPort != 0 ? requestedTlsPort : freePort();
                cmd.addAll(tls.redisArgs(tlsPort));
            }
            cmd.addAll(extraArgs);
            Process proc = startWatched(cmd);
            if (awaitReady(proc, p)) {
                this.port = p;
                this.process = proc;
                checkKind();
                return;
            }
            stop(proc);
            last = new IOException(kind.command() + " did not start on port " + p + ": " + log());

            if (port != 0) {
                break;
            }
        }
        throw last;
    }

    /** Checks that {@code INFO server} names this server's kind; a server that does not is stopped. */
    private void checkKind() {
        int at = extraArgs.indexOf("--requirepass");
        String info = Resp.send(port, at >= 0 ? extraArgs.get(at + 1) : null, "INFO", "server");
        if (!kind.answered(info)) {
            kill();
            throw new IllegalStateException(kind.binary() + " is not a " + kind.command() + ": INFO server answered " + info);
        }
    }

    /** Starts {@code cmd} under the {@link #WATCHDOG}, output to {@code redis.log}. */
    private Process startWatched(List<String> cmd) throws IOException {
        List<String> watched = new ArrayList<>(List.of("sh", "-c", WATCHDOG, "redis-watchdog",
                Long.toString(ProcessHandle.current().pid())));
        watched.addAll(cmd);
        Process proc = new ProcessBuilder(watched).redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile()).start();
        RUNNING.add(proc);
        return proc;
    }

    /** Kills {@code proc} (SIGKILL) and waits until it is gone. */
    private static void stop(Process proc) {
        proc.destroyForcibly();
        try {
            proc.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            RUNNING.remove(proc);
        }
    }

    /**
     * Whether this server is up within 30 s (a loaded machine may take seconds, only a fault takes that long): its
     * own log says it listens, and the port answers PING. The log comes first: when another build's server holds
     * the port, that one would answer PING while this one fails to bind and exits.
     */
    private boolean awaitReady(Process proc, int p) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!proc.isAlive()) {
                return false;
            }
            String log = log();
            boolean listening = log.contains("Ready to accept connections") || log.contains("Sentinel ID is");
            if (listening && proc.isAlive() && Resp.ping(p)) {
                return true;
            }
            try {
                proc.waitFor(20, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** The TLS port of a server started with {@link #startTls}. */
    public int tlsPort() {
        if (tls == null) {
            throw new IllegalStateException("this server serves no TLS");
        }
        return tlsPort;
    }

    /** {@code rediss://127.0.0.1:<tls port>}. */
    public String tlsUri() {
        return "rediss://127.0.0.1:" + tlsPort();
    }

    public Path dir() {
        return dir;
    }

    public String log() {
        try {
            return Files.readString(dir.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Holds every write and every script call sent from now on, unanswered, until {@link #unpause()} (or until
     * {@code atMost} has passed): {@code CLIENT PAUSE <ms> WRITE}. Reads, and the commands of a paused server's
     * other clients that write nothing, are still answered.
     */
    public void pauseWrites(java.time.Duration atMost) {
        command("CLIENT", "PAUSE", Long.toString(atMost.toMillis()), "WRITE");
    }

    /** Answers what {@link #pauseWrites} held: {@code CLIENT UNPAUSE}. */
    public void unpause() {
        command("CLIENT", "UNPAUSE");
    }

    /** Sends one command on a connection of its own and checks that it answered {@code +OK}. */
    private void command(String... args) {
        String reply = Resp.send(port, null, args);
        if (!"+OK".equals(reply)) {
            throw new IllegalStateException(String.join(" ", args) + " answered " + reply);
        }
    }

    /** Kills the server at once (SIGKILL), as a crash would. */
    public void kill() {
        if (process != null) {
            stop(process);
        }
    }

    /** Starts the server again on the same port, empty. */
    public void restart() {
        kill();
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        kill();
    }
}
