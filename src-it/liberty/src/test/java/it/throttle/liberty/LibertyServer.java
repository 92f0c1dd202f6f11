package it.throttle.liberty;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Open Liberty server that the build created under {@code target/liberty/wlp}, run in the foreground
 * ({@code bin/server run}) with the environment a test gives it. Failing to start is an error, never a skip.
 */
final class LibertyServer implements AutoCloseable {

    /** Liberty's own messages for a server or application that did not come up. */
    private static final Pattern FAILED = Pattern.compile("(CWWKZ0002E|CWWKZ0004E|CWWKZ0012E|CWWKF0001E|CWWKF0042E|CWWKE0[0-9]{3}E)[^\\n]*");
    /** A messages.log line of severity E (error) or W (warning). */
    private static final Pattern PROBLEM = Pattern.compile("^\\[[^]]+] [0-9a-f]+ \\S+\\s+[EW] ");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Path wlp;
    private final String name;
    private final int port;
    private final Path console;
    private final Process process;
    private final Thread onExit;

    private LibertyServer(Path wlp, String name, int port, Path console, Process process) {
        this.wlp = wlp;
        this.name = name;
        this.port = port;
        this.console = console;
        this.process = process;
        this.onExit = new Thread(this::stopQuietly, "liberty-stop");
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    /**
     * Starts the server on {@code port} with {@code env} added to (and {@code THROTTLE_*} variables of this JVM
     * removed from) its environment, and waits until the application answers.
     */
    static LibertyServer start(String label, int port, Map<String, String> env) {
        return start(label, port, env, null);
    }

    /**
     * Starts the server as {@link #start(String, int, Map)} does, with the configuration of the test resource
     * {@code config} (e.g. more features) added to {@code server.xml} for this run, or none when null.
     */
    static LibertyServer start(String label, int port, Map<String, String> env, String config) {
        Path wlp = Path.of(required("liberty.wlp.dir"));
        String name = required("liberty.server");
        addConfig(wlp.resolve("usr/servers").resolve(name), config);
        Path console = wlp.getParent().resolve("console-" + label + ".log");
        ProcessBuilder pb = new ProcessBuilder(wlp.resolve("bin/server").toString(), "run", name)
                .redirectErrorStream(true)
                .redirectOutput(console.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("THROTTLE_"));
        pb.environment().put("HTTP_PORT", Integer.toString(port));
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + pb.command(), e);
        }
        LibertyServer server = new LibertyServer(wlp, name, port, console, p);
        try {
            server.awaitReady();
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * Liberty merges {@code configDropins/overrides/*.xml} into {@code server.xml} at start: one file of this
     * run's additions, removed for a run without any, so that the plain runs keep the plain server.
     */
    private static void addConfig(Path serverDir, String config) {
        Path dropin = serverDir.resolve("configDropins/overrides/it-run.xml");
        try {
            if (config == null) {
                Files.deleteIfExists(dropin);
                return;
            }
            try (InputStream in = LibertyServer.class.getResourceAsStream(config)) {
                if (in == null) {
                    throw new IllegalStateException("no test resource " + config);
                }
                Files.createDirectories(dropin.getParent());
                Files.copy(in, dropin, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return port;
    }

    /** The server's console output so far. */
    String console() {
        try {
            return Files.readString(console, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The server's current {@code logs/messages.log} (a new one each start). */
    String messages() {
        try {
            return Files.readString(wlp.resolve("usr/servers").resolve(name).resolve("logs/messages.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Throttle's start-up line ({@code Throttle enabled, counting in the ...}) in {@code messages.log}, waited
     * for: the server may write its log after the application answers.
     */
    String startUpLine() {
        AtomicReference<String> line = new AtomicReference<>();
        Observability.await("Throttle's start-up line in messages.log", Duration.ofSeconds(30), () -> {
            line.set(messages().lines().filter(l -> l.contains("Throttle enabled, counting in the ")).findFirst().orElse(null));
            return line.get() != null;
        });
        return line.get();
    }

    /** The error and warning lines of {@code messages.log}: none is expected from a healthy deployment. */
    List<String> problems() {
        return messages().lines().filter(l -> PROBLEM.matcher(l).find()).toList();
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            String out = console();
            Matcher failed = FAILED.matcher(out);
            if (failed.find()) {
                throw new AssertionError("Liberty did not start the application: " + failed.group() + "\n" + tail(out));
            }
            if (!process.isAlive()) {
                throw new AssertionError("Liberty exited with " + process.exitValue() + "\n" + tail(out));
            }
            if (out.contains("CWWKZ0001I") && RawHttp.answers(port, "/it/open")) {
                return;
            }
            try {
                process.waitFor(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for Liberty", e);
            }
        }
        throw new AssertionError("Liberty was not ready within " + START_TIMEOUT + "\n" + tail(console()));
    }

    private static String tail(String s) {
        return s.length() > 6000 ? "..." + s.substring(s.length() - 6000) : s;
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isEmpty()) {
            throw new IllegalStateException("system property " + property + " is not set (run the suite with Maven)");
        }
        return v;
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // already shutting down: the hook does the work
        }
        stopQuietly();
    }

    /** {@code bin/server stop}, then waits for the foreground process; kills it if it outlives the deadline. */
    private void stopQuietly() {
        if (!process.isAlive()) {
            return;
        }
        try {
            Process stop = new ProcessBuilder(wlp.resolve("bin/server").toString(), "stop", name)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            stop.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static int port(String property) {
        return Integer.parseInt(required(property));
    }

}
