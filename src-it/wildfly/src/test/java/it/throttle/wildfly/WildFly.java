package it.throttle.wildfly;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.RawHttp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * A real WildFly process ({@code bin/standalone.sh -c standalone-microprofile.xml}) of the unpacked distribution,
 * with a server directory of its own ({@code target/wildfly/<run>}: configuration, deployments, log) and the
 * application WAR deployed as {@code ROOT.war} by the deployment scanner, bound to 127.0.0.1 on ports moved by
 * a free port offset. The configuration gets WildFly's Micrometer subsystem with a Prometheus registry served on
 * the management port at {@link #PROMETHEUS}. Failing to start (process exit, a failed deployment, no answer
 * before the deadline) is an error, never a reason to skip.
 */
final class WildFly implements AutoCloseable {

    /** Where the Micrometer subsystem's Prometheus registry is served, on the management port. */
    static final String PROMETHEUS = "/prometheus";

    private static final long START_TIMEOUT_SECONDS = Long.getLong("wildfly.start-timeout", 300);
    private static final String CONFIG = "standalone-microprofile.xml";
    /** The ports of standalone-microprofile.xml's socket bindings, each moved by the offset. */
    private static final List<Integer> PORTS = List.of(8080, 8443, 9990, 9993, 8009, 4712, 4713);

    private final Process process;
    private final int offset;
    private final Path base;
    private final Path console;

    private WildFly(Process process, int offset, Path base, Path console) {
        this.process = process;
        this.offset = offset;
        this.base = base;
        this.console = console;
    }

    /** Starts a server counting in {@code redis} ({@code THROTTLE_REDIS_URI}), with these other environment variables. */
    static WildFly startOnRedis(String name, RedisProcess redis, Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put("THROTTLE_REDIS_URI", redis.uri());
        return start(name, all);
    }

    /** Stops the server, then the Redis it counted in; each only if it was started. */
    static void stop(WildFly server, RedisProcess redis) {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    /**
     * Starts the server with {@code env} added to (or, for a null value, removed from) its environment, and
     * returns once the application is deployed and answers.
     */
    static WildFly start(String name, Map<String, String> env) {
        Path home = Path.of(required("wildfly.home"));
        Path war = Path.of(required("wildfly.war"));
        Path base = Path.of(required("wildfly.work")).resolve(name);
        try {
            delete(base);
            copy(home.resolve("standalone/configuration"), base.resolve("configuration"));
            addMicrometer(base.resolve("configuration").resolve(CONFIG));
            Files.createDirectories(base.resolve("deployments"));
            Files.copy(war, base.resolve("deployments/ROOT.war"));
            Path console = base.resolve("console.log");
            int offset = freeOffset();
            List<String> cmd = List.of(home.resolve("bin/standalone.sh").toString(), "-c", CONFIG,
                    "-Djboss.server.base.dir=" + base,
                    "-Djboss.socket.binding.port-offset=" + offset,
                    // loopback only: nothing outside this machine reaches the test server
                    "-Djboss.bind.address=127.0.0.1",
                    "-Djboss.bind.address.management=127.0.0.1",
                    // the one line of configuration Throttle's OpenAPI responses need
                    "-Dmp.openapi.filter=io.github.throttle.openapi.ThrottleOpenApiFilter");
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(base.toFile()).redirectErrorStream(true)
                    .redirectOutput(console.toFile());
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            pb.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
            pb.environment().remove("JAVA_OPTS");
            env.forEach((k, v) -> {
                if (v == null) {
                    pb.environment().remove(k);
                } else {
                    pb.environment().put(k, v);
                }
            });
            Process process = pb.start();
            // should the test JVM die before @AfterAll, the server goes with it
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }, "stop-wildfly-" + name));
            WildFly server = new WildFly(process, offset, base, console);
            server.awaitDeployed();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Adds the Micrometer extension and subsystem, with a Prometheus registry, to the server configuration. */
    private static void addMicrometer(Path config) throws IOException {
        String xml = Files.readString(config);
        String extensions = "<extensions>";
        String profile = "<profile>";
        if (!xml.contains(extensions) || !xml.contains(profile)) {
            throw new IllegalStateException("no <extensions> or <profile> in " + config);
        }
        xml = xml.replace(extensions, extensions + "\n        <extension module=\"org.wildfly.extension.micrometer\"/>")
                .replace(profile, profile + "\n        <subsystem xmlns=\"urn:wildfly:micrometer:community:2.0\">"
                        + "<prometheus-registry context=\"" + PROMETHEUS + "\" security-enabled=\"false\"/></subsystem>");
        Files.writeString(config, xml);
    }

    /** A port offset that moves every port of the configuration onto a free one. */
    private static int freeOffset() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int offset = ThreadLocalRandom.current().nextInt(100, 20_000);
            if (PORTS.stream().allMatch(p -> free(p + offset))) {
                return offset;
            }
        }
        throw new IllegalStateException("no port offset with all of " + PORTS + " free");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (run the tests through Maven)");
        }
        return v;
    }

    /** Waits for the scanner's marker of the WAR ({@code .deployed} or {@code .failed}), then for the application to answer. */
    private void awaitDeployed() {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        Path deployments = base.resolve("deployments");
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("WildFly exited with " + process.exitValue() + " before deploying:\n" + logTail());
            }
            if (Files.exists(deployments.resolve("ROOT.war.failed"))) {
                close();
                throw new IllegalStateException("WildFly failed to deploy the WAR:\n" + logTail());
            }
            if (Files.exists(deployments.resolve("ROOT.war.deployed")) && RawHttp.answers(port(), "/it/open")) {
                System.out.printf("WildFly deployed the WAR and answered on port %d after %d ms%n", port(),
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                return;
            }
            try {
                process.waitFor(250, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        close();
        throw new IllegalStateException("WildFly did not deploy and answer on port " + port() + " within "
                + START_TIMEOUT_SECONDS + " s:\n" + logTail());
    }

    /** The HTTP port of the application. */
    int port() {
        return 8080 + offset;
    }

    /** The management port: health, metrics. */
    int managementPort() {
        return 9990 + offset;
    }

    /** The server log, {@code log/server.log} of the run's directory. */
    String log() {
        try {
            return Files.readString(base.resolve("log/server.log"));
        } catch (IOException e) {
            return "(no server.log: " + e + ")";
        }
    }

    /**
     * Throttle's start-up line ({@code Throttle enabled, counting in the ...}), waited for: the logger may
     * write it after the application answers.
     */
    String startUpLine() {
        AtomicReference<String> line = new AtomicReference<>();
        Observability.await("Throttle's start-up line in the server log", Duration.ofSeconds(30), () -> {
            log().lines().filter(l -> l.contains("Throttle enabled, counting in the ")).findFirst().ifPresent(line::set);
            return line.get() != null;
        });
        return line.get();
    }

    private String logTail() {
        String l;
        try {
            l = Files.readString(console);
        } catch (IOException e) {
            l = log();
        }
        return l.length() > 20_000 ? "..." + l.substring(l.length() - 20_000) : l;
    }

    /**
     * Stops the server: the JVM under standalone.sh first (its shutdown hook stops WildFly in order), then the
     * script; each killed if it does not stop in time. The run's directory (and its log) stays in target/.
     */
    @Override
    public void close() {
        try {
            for (ProcessHandle p : process.descendants().toList()) {
                p.destroy();
                try {
                    p.onExit().get(60, TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    p.destroyForcibly();
                }
            }
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
