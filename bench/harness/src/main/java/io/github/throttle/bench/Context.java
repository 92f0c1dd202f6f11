package io.github.throttle.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static io.github.throttle.bench.Stats.f;

/** What the sections share: the settings, the identities, the Redis server of the moment, and the results' lines. */
final class Context {

    static final int[] CALLERS = {1, 16, 64};
    static final int IDENTITIES = 10_000;

    /** Measured seconds per figure ({@code BENCH_SECONDS}), warm-up seconds ({@code BENCH_WARMUP}), rounds ({@code BENCH_ROUNDS}). */
    final double seconds = env("BENCH_SECONDS", 2);
    final double warm = env("BENCH_WARMUP", 1);
    final int rounds = (int) env("BENCH_ROUNDS", 3);

    final String[] ids = new String[IDENTITIES];
    /** The redis-server that the running section measures against. */
    RedisServer redis;
    /** Redis CPU per call (µs) of the script rows at 64 connections, for the instruction rows' model. */
    final Map<String, Double> scriptCpu = new HashMap<>();

    private final List<String> out = new ArrayList<>();
    /** The last requests per second of each redis-benchmark run, to size the next one. */
    private final Map<String, Double> estimates = new HashMap<>();

    Context() {
        for (int i = 0; i < IDENTITIES; i++) {
            ids[i] = identity(i);
        }
    }

    static String identity(int i) {
        // as redis-benchmark writes __rand_int__: twelve digits
        return "key:" + f("%012d", i);
    }

    /** One of the {@link #IDENTITIES} identities at random. */
    String anyId() {
        return ids[anyIndex()];
    }

    /** The index of one of the {@link #IDENTITIES} identities at random. */
    static int anyIndex() {
        return ThreadLocalRandom.current().nextInt(IDENTITIES);
    }

    /** Adds a line to the results. */
    void line(String s) {
        out.add(s);
    }

    /** Starts a table: an empty line, its title, an empty line. */
    void title(String title) {
        out.add("");
        out.add("### " + title);
        out.add("");
    }

    List<String> lines() {
        return out;
    }

    /** redis-benchmark against {@link #redis} for about {@link #seconds}, its request count sized from the last figure. */
    double redisBenchmark(String name, int c, int randomKeys, List<String> command) {
        return redisBenchmark(name, c, 1, randomKeys, command);
    }

    /** As above, each of the {@code c} connections keeping {@code pipeline} requests in flight. */
    double redisBenchmark(String name, int c, int pipeline, int randomKeys, List<String> command) {
        String k = name + c + "x" + pipeline;
        Double est = estimates.get(k);
        if (est == null) {
            est = Processes.redisBenchmark(redis.port, c, pipeline, 5_000L * Math.max(1, c * pipeline / 4), randomKeys, command);
        }
        double v = Processes.redisBenchmark(redis.port, c, pipeline, Math.max(2_000, (long) (est * seconds)), randomKeys, command);
        estimates.put(k, v);
        return v;
    }

    static void log(String s) {
        System.err.println(s);
    }

    static String resource(String name) {
        try (InputStream in = Context.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double env(String name, double dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : Double.parseDouble(v);
    }
}
