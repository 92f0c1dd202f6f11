package it.throttle.scenarios;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A real application server process a suite starts: its command, its environment, its console captured to a
 * file, a start deadline and a stop. Every runtime's suite launches its server through this one class and
 * says only how to run it, which log Throttle writes to and when the application is ready. Failing to start
 * (process exit, a failure the runtime reports, no answer before the deadline) is an error, never a reason to
 * skip.
 */
public final class ServerProcess implements AutoCloseable {

    /** How long a server may take to start on a slow, busy machine: only a real fault takes longer. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(Long.getLong("it.server.start-timeout", 300));
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    /** What a runtime says of its starting server: not yet ready, or failed (with why). */
    public interface Readiness {
        /** True once the application answers; throws, naming the cause, when the runtime reports a failure. */
        boolean ready(ServerProcess server);
    }

    private final String name;
    private final Process process;
    private final int port;
    private final Path console;
    private final Supplier<Path> log;

    private ServerProcess(String name, Process process, int port, Path console, Supplier<Path> log) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.console = console;
        this.log = log;
    }

    /**
     * Runs {@code command} in {@code dir} with {@code env} added to (or, for a null value, removed from) this
     * JVM's environment less its {@code THROTTLE_*} variables, its output in {@code console}; returns once
     * {@code readiness} says the application on {@code port} is ready.
     *
     * @param log the file Throttle's log lines go to (the console, or the server's own log)
     */
    public static ServerProcess start(String name, List<String> command, Path dir, Map<String, String> env, int port,
                                      Path console, Supplier<Path> log, Readiness readiness) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(console.toFile());
        // whatever the build's own environment holds, a run has only the configuration its test gives it
        pb.environment().keySet().removeIf(k -> k.startsWith("THROTTLE_"));
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
        // should the test JVM die before the suite stops it, the server goes with it
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }, "stop-" + name));
        ServerProcess server = new ServerProcess(name, process, port, console, log);
        try {
            server.awaitReady(readiness);
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitReady(Readiness readiness) {
        long started = System.nanoTime();
        long deadline = started + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " before answering:\n" + consoleTail());
            }
            if (readiness.ready(this)) {
                System.out.printf("%s answered on port %d after %d ms%n", name, port,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                return;
            }
            try {
                process.waitFor(250, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, e);
            }
        }
        throw new IllegalStateException(name + " did not answer on port " + port + " within " + START_TIMEOUT + ":\n" + consoleTail());
    }

    /** The HTTP port of the application. */
    public int port() {
        return port;
    }

    /** The server's console output so far. */
    public String console() {
        return read(console);
    }

    /** The log Throttle writes to, as it is now. */
    public String log() {
        return read(log.get());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(no " + file + ": " + e + ")";
        }
    }

    /** The last 20,000 characters of the console, for a failure's message. */
    public String consoleTail() {
        String l = console();
        return l.length() > 20_000 ? "..." + l.substring(l.length() - 20_000) : l;
    }

    /**
     * Throttle's start-up line ({@code Throttle enabled, counting in the ...}), waited for: the server may write
     * its log after the application answers.
     */
    public String startUpLine() {
        AtomicReference<String> line = new AtomicReference<>();
        Observability.await("Throttle's start-up line in the server log", Duration.ofSeconds(30), () -> {
            log().lines().filter(l -> l.contains("Throttle enabled, counting in the ")).findFirst().ifPresent(line::set);
            return line.get() != null;
        });
        return line.get();
    }

    /**
     * Stops the server: the processes under the launcher first (a script's JVM stops in order on its shutdown
     * hook), then the launcher; each killed if it does not stop in time. Its directory and logs stay in target/.
     */
    @Override
    public void close() {
        try {
            for (ProcessHandle p : process.descendants().toList()) {
                p.destroy();
                try {
                    p.onExit().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    p.destroyForcibly();
                }
            }
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /** A system property the build sets; missing means the tests do not run through Maven. */
    public static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (run the tests through Maven)");
        }
        return v;
    }
}
