package io.github.throttle.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Set;

/**
 * The benchmark of README "Performance". Starts its own redis-server, drives Throttle's stores as an
 * annotated method does (its plan's store call, then the decider), Bucket4j, redis-benchmark and wrk, and
 * prints one Markdown table per section: figures and ratios. Settings (environment): BENCH_SECONDS (measured
 * seconds per figure, 2), BENCH_WARMUP (1), BENCH_ROUNDS (3), BENCH_ONLY (comma-separated sections:
 * redis,memory,path,script,instructions,windows,size,heap,http,cost,replicas,leases), BENCH_HTTP_APP (the Quarkus app's
 * quarkus-run.jar).
 */
public final class Bench {

    /** The sections that measure against one redis-server, in order ({@code instructions} reads {@code script}'s figures). */
    static final List<Section> ON_REDIS = List.of(new RedisSection(), new ScriptSection(), new InstructionsSection(),
            new WindowsSection(), new SizeSection());
    /** The sections without Redis. */
    static final List<Section> IN_PROCESS = List.of(new MemorySection(), new PathSection(), new HeapSection());
    /** Run last, each with a redis-server of its own. */
    static final List<Section> OVER_HTTP = List.of(new HttpSection(), new CostSection(), new ReplicasSection(), new LeasesSection());

    private final Context ctx = new Context();
    private final Set<String> only = Set.of(System.getenv().getOrDefault("BENCH_ONLY",
            "redis,memory,path,script,instructions,windows,size,heap,http,cost,replicas,leases").split(","));

    public static void main(String[] args) throws Exception {
        new Bench().run();
    }

    void run() throws Exception {
        String load0 = loadAverage();
        long started = System.nanoTime();
        try (RedisServer r = new RedisServer()) {
            ctx.redis = r;
            ctx.line("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs (" + cpuModel() + "), Java "
                    + System.getProperty("java.runtime.version") + ", Redis " + r.version + ", " + ZonedDateTime.now(ZoneOffset.UTC).withNano(0)
                    + "; " + ctx.rounds + " rounds of " + ctx.seconds + " s (after " + ctx.warm + " s warm-up) per figure, medians; ratios are medians of per-round ratios.");
            ON_REDIS.forEach(this::section);
        }
        ctx.redis = null;
        IN_PROCESS.forEach(this::section);
        for (Section s : OVER_HTTP) {
            if (only.contains(s.name())) {
                try (RedisServer r = new RedisServer()) {
                    ctx.redis = r;
                    section(s);
                }
            }
        }
        ctx.line("");
        ctx.line("Load average before: " + load0 + "; after: " + loadAverage() + "; took " + (System.nanoTime() - started) / 1_000_000_000 + " s.");
        String text = String.join("\n", ctx.lines());
        System.out.println();
        System.out.println(text);
        Path file = Path.of(System.getProperty("bench.out", "results.md"));
        Files.writeString(file, text + "\n");
        System.out.println("\n(written to " + file.toAbsolutePath() + ")");
        System.exit(0);
    }

    /** Runs one section if BENCH_ONLY names it; a failure is reported in the results and the other sections still run. */
    private void section(Section section) {
        if (!only.contains(section.name())) {
            return;
        }
        try {
            section.run(ctx);
        } catch (Exception | Error e) {
            e.printStackTrace();
            ctx.line("");
            ctx.line("Section " + section.name() + " FAILED: " + e);
        }
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }
}
