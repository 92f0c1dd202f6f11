package io.github.throttle.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Optional;

/**
 * Which server the test launchers ({@link RedisProcess}, {@link RedisSentinelProcess}, {@link RedisClusterProcess})
 * start, and where its binary is. {@link #REDIS}: {@code $REDIS_SERVER}, else {@code redis-server} from {@code PATH},
 * else the one shipped in the {@code embedded-redis} test jar. {@link #VALKEY}: {@code $VALKEY_SERVER}, else
 * {@code valkey-server} from {@code PATH}; nothing is shipped. A Sentinel is the same binary with {@code --sentinel}.
 *
 * <p>The launchers start {@link #current()}: Redis unless a test class runs under {@code ValkeyServers}, which
 * switches it to Valkey for that class. The tests of a JVM run one after the other (JUnit's parallel execution is
 * off), so one setting for the JVM is enough.
 */
public enum ServerKind {

    REDIS("redis-server", "REDIS_SERVER"),
    VALKEY("valkey-server", "VALKEY_SERVER");

    private static volatile ServerKind current = REDIS;

    private final String command;
    private final String variable;
    private volatile Path binary;

    ServerKind(String command, String variable) {
        this.command = command;
        this.variable = variable;
    }

    /** The kind the launchers start now. */
    public static ServerKind current() {
        return current;
    }

    /** Makes the launchers start {@code kind} from now on. */
    public static void use(ServerKind kind) {
        current = kind;
    }

    /** The binary's name on {@code PATH}, e.g. {@code valkey-server}. */
    public String command() {
        return command;
    }

    /** The environment variable naming the binary, e.g. {@code VALKEY_SERVER}. */
    public String variable() {
        return variable;
    }

    /** The binary named by the environment variable, else found on {@code PATH}; empty when neither has one. */
    public Optional<Path> installed() {
        String env = System.getenv(variable);
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException(variable + "=" + env + " is not an executable file");
            }
            return Optional.of(p);
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, command);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The binary the tests of this JVM start for this kind; found once, then printed. */
    public synchronized Path binary() {
        if (binary == null) {
            binary = installed().orElseGet(() -> {
                if (this == VALKEY) {
                    throw new IllegalStateException("no valkey-server on PATH and " + variable
                            + " is not set: install Valkey 8 (the Valkey suites require it here)");
                }
                return extractShippedRedis();
            });
            System.out.println(command + " for tests: " + binary);
        }
        return binary;
    }

    /** Whether {@code infoServer}, the reply to {@code INFO server}, comes from a server of this kind. */
    public boolean answered(String infoServer) {
        boolean valkey = infoServer.contains("server_name:valkey") && infoServer.contains("valkey_version:");
        return this == VALKEY ? valkey : !valkey;
    }

    private static Path extractShippedRedis() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm");
        String name;
        if (os.contains("linux")) {
            name = arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
        } else if (os.contains("mac")) {
            name = arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
        } else {
            throw new IllegalStateException("no redis-server on PATH and none shipped for " + os + "/" + arch
                    + "; install Redis or set REDIS_SERVER");
        }
        try (InputStream in = RedisProcess.class.getResourceAsStream("/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no redis-server on PATH and " + name
                        + " is missing from the test classpath (com.github.codemonstur:embedded-redis)");
            }
            Path target = Files.createTempDirectory("throttle-redis-bin-").resolve("redis-server");
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
