package it.throttle.payara;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.RawHttp;
import io.github.throttle.testing.RedisProcess;

import java.io.IOException;
import java.io.UncheckedIOException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real Payara Micro process serving the application WAR at {@code /} on a free port, bound to 127.0.0.1. The
 * suites of Payara Micro 6 (src-it/payara) and 7 (src-it/payara7) share it: the build names the server jar and the
 * java binary.
 * Failing to start (process exit, no answer before the deadline) is an error, never a reason to skip.
 */
final class PayaraMicro implements AutoCloseable {

    private static final long START_TIMEOUT_SECONDS = Long.getLong("payara.start-timeout", 180);

    private final Process process;
    private final int port;
    private final Path log;

    private PayaraMicro(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts a server counting in {@code redis} ({@code THROTTLE_REDIS_URI}), with these other environment variables. */
    static PayaraMicro startOnRedis(String name, RedisProcess redis, Map<String, String> env) {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("THROTTLE_REDIS_URI", redis.uri());
        return start(name, all);
    }

    /** Stops the server, then the Redis it counted in; each only if it was started. */
    static void stop(PayaraMicro payara, RedisProcess redis) {
        try {
            if (payara != null) {
                payara.close();
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    /**
     * Starts the server with {@code env} added to (or, for a null value, removed from) its environment, and
     * returns once the application answers.
     */
    static PayaraMicro start(String name, Map<String, String> env) {
        return start(name, env, Map.of());
    }

    /**
     * Starts the server as {@link #start(String, Map)} does, with these users (name to password) in the file
     * realm, each in the group {@code throttle-admin} when its name is in {@code admins}.
     */
    static PayaraMicro start(String name, Map<String, String> env, Map<String, String> users, String... admins) {
        Path jar = Path.of(required("payara.jar"));
        Path war = Path.of(required("payara.war"));
        Path work = Path.of(required("payara.work"));
        try {
            Path root = Files.createTempDirectory(work, name + "-root-");
            Path preBoot = root.resolve("pre-boot.asadmin");
            // loopback only: nothing outside this machine reaches the test server
            Files.writeString(preBoot, "set configs.config.server-config.network-config.network-listeners"
                    + ".network-listener.http-listener.address=127.0.0.1\n");
            Path postBoot = root.resolve("post-boot.asadmin");
            StringBuilder commands = new StringBuilder();
            for (Map.Entry<String, String> user : users.entrySet()) {
                Path password = root.resolve(user.getKey() + ".password");
                Files.writeString(password, "AS_ADMIN_USERPASSWORD=" + user.getValue() + "\n");
                boolean admin = List.of(admins).contains(user.getKey());
                commands.append("create-file-user --groups ").append(admin ? "throttle-admin" : "users")
                        .append(" --passwordfile ").append(password).append(' ').append(user.getKey()).append('\n');
            }
            Files.writeString(postBoot, commands.toString());
            Path log = work.resolve(name + ".log");
            int port = RedisProcess.freePort();
            List<String> cmd = new ArrayList<>(List.of(
                    java(),
                    "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    // the one line of configuration Throttle's OpenAPI responses need on Payara
                    "-Dmp.openapi.filter=io.github.throttle.openapi.ThrottleOpenApiFilter",
                    "-jar", jar.toString(),
                    "--deploy", war.toString(),
                    "--contextroot", "/",
                    "--port", Integer.toString(port),
                    "--nocluster",
                    "--disablephonehome",
                    "--rootdir", root.toString(),
                    "--unpackdir", work.resolve("runtime").toString(),
                    "--prebootcommandfile", preBoot.toString(),
                    "--postbootcommandfile", postBoot.toString()));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
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
            }, "stop-payara-" + name));
            PayaraMicro server = new PayaraMicro(process, port, log);
            server.awaitReady();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The java binary that runs the server: the property {@code payara.java} when set (Payara Micro 7 needs Java
     * 21+ while the build may run on 17), else the one running the tests.
     */
    private static String java() {
        String java = System.getProperty("payara.java");
        return java == null || java.isBlank() ? Path.of(System.getProperty("java.home"), "bin", "java").toString() : java;
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (run the tests through Maven)");
        }
        return v;
    }

    private void awaitReady() {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Payara Micro exited with " + process.exitValue() + " before answering:\n" + logTail());
            }
            if (RawHttp.answers(port, "/it/open")) {
                System.out.printf("Payara Micro answered on port %d after %d ms%n", port,
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
        throw new IllegalStateException("Payara Micro did not answer on port " + port + " within "
                + START_TIMEOUT_SECONDS + " s:\n" + logTail());
    }

    int port() {
        return port;
    }

    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /**
     * Throttle's start-up line ({@code Throttle enabled, counting in the ...}), waited for: the server may write
     * its log after it answers.
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
        String l = log();
        return l.length() > 20_000 ? "..." + l.substring(l.length() - 20_000) : l;
    }

    /** Stops the server (shutdown hooks run), killing it if it does not stop in time. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
