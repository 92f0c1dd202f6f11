package io.github.throttle.testing;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two application processes, {@code a} and {@code b}: JVMs of their own on this test's class path, each running
 * {@code main} with the Redis URI, its name and {@code args}. They meet at a barrier of their own in Redis.
 */
public final class TwoProcesses {

    private TwoProcesses() {
    }

    /** Runs both to their end; returns what each printed, a's first. Each must end well (exit 0). */
    public static List<String> run(Class<?> main, RedisProcess redis, String... args) throws Exception {
        Process a = start(main, redis, "a", args);
        Process b = start(main, redis, "b", args);
        CompletableFuture<String> outA = CompletableFuture.supplyAsync(() -> read(a));
        CompletableFuture<String> outB = CompletableFuture.supplyAsync(() -> read(b));
        // generous bounds: each process takes seconds, only a hung one reaches them
        assertTrue(a.waitFor(5, TimeUnit.MINUTES), "process a still running");
        assertTrue(b.waitFor(5, TimeUnit.MINUTES), "process b still running");
        String logA = outA.get(1, TimeUnit.MINUTES);
        String logB = outB.get(1, TimeUnit.MINUTES);
        assertEquals(0, a.exitValue(), logA);
        assertEquals(0, b.exitValue(), logB);
        return List.of(logA, logB);
    }

    private static Process start(Class<?> main, RedisProcess redis, String name, String... args) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> command = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                main.getName(), redis.uri(), name));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static String read(Process p) {
        try {
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
