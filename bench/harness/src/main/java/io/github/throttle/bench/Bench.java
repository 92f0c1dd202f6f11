package io.github.throttle.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.redis.RedisStore;
import io.github.throttle.redis.SlidingWindowScript;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/**
 * The benchmark of README "Performance". Starts its own redis-server, drives Throttle's stores through
 * {@link Decider} (the path of an annotated method: its plan's store call, then the decider), Bucket4j, redis-benchmark and wrk,
 * and prints one Markdown table. Settings (environment): BENCH_SECONDS (measured seconds per figure, 2),
 * BENCH_WARMUP (1), BENCH_ROUNDS (3), BENCH_ONLY (comma-separated sections: redis,memory,path,script,instructions,windows,
 * size,heap,http), BENCH_HTTP_APP (the Quarkus app's quarkus-run.jar).
 */
public final class Bench {

    static final int[] CALLERS = {1, 16, 64};
    static final int IDENTITIES = 10_000;

    /** The README example's three limits (10/s + 120/min + 240/h at 1 min), raised so that every call is allowed. */
    static final Limit[] HIGH = {
            Limit.fixed(900_000_000, 1_000),
            Limit.fixed(2_000_000_000, 60_000),
            Limit.of(2_000_000_000, 3_600_000, 60_000)};
    /** The README example itself. */
    static final Limit[] EXAMPLE = {
            Limit.fixed(10, 1_000),
            Limit.fixed(120, 60_000),
            Limit.of(240, 3_600_000, 60_000)};
    /** The same limits for the article's script: [duration s, limit, precision s]. */
    static final String SEED_HIGH = "[[1,900000000],[60,2000000000],[3600,2000000000,60]]";
    static final String SEED_EXAMPLE = "[[1,10],[60,120],[3600,240,60]]";

    final double seconds = env("BENCH_SECONDS", 2);
    final double warm = env("BENCH_WARMUP", 1);
    final int rounds = (int) env("BENCH_ROUNDS", 3);
    final Set<String> only = Set.of(System.getenv().getOrDefault("BENCH_ONLY",
            "redis,memory,path,script,instructions,windows,size,heap,http").split(","));

    final KeyCodec codec = new KeyCodec("throttle");
    final String[] ids = new String[IDENTITIES];
    final List<String> out = new ArrayList<>();
    final List<String> verdicts = new ArrayList<>();
    RedisServer redis;

    public static void main(String[] args) throws Exception {
        new Bench().run();
    }

    Bench() {
        for (int i = 0; i < IDENTITIES; i++) {
            ids[i] = identity(i);
        }
    }

    static String identity(int i) {
        // as redis-benchmark writes __rand_int__: twelve digits
        return "key:" + f("%012d", i);
    }

    void run() throws Exception {
        String load0 = loadAverage();
        long started = System.nanoTime();
        try (RedisServer r = new RedisServer()) {
            redis = r;
            out.add("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs (" + cpuModel() + "), Java "
                    + System.getProperty("java.runtime.version") + ", Redis " + r.version + ", " + ZonedDateTime.now(ZoneOffset.UTC).withNano(0)
                    + "; " + rounds + " rounds of " + seconds + " s (after " + warm + " s warm-up) per figure, medians; ratios are medians of per-round ratios.");
            section("redis", this::redisRows);
            section("script", this::scriptRows);
            section("instructions", this::instructionRows);
            section("windows", this::windowRows);
            section("size", this::sizeRows);
        }
        section("memory", this::memoryRows);
        section("path", this::pathRows);
        section("heap", this::heapRows);
        if (only.contains("http")) {
            try (RedisServer r = new RedisServer()) {
                redis = r;
                section("http", this::httpRows);
            }
        }
        out.add("");
        out.add("Load average before: " + load0 + "; after: " + loadAverage() + "; took " + (System.nanoTime() - started) / 1_000_000_000 + " s.");
        out.add("");
        out.add("Targets:");
        for (String v : verdicts) {
            out.add("- " + v);
        }
        String text = String.join("\n", out);
        System.out.println();
        System.out.println(text);
        Path file = Path.of(System.getProperty("bench.out", "results.md"));
        Files.writeString(file, text + "\n");
        System.out.println("\n(written to " + file.toAbsolutePath() + ")");
        System.exit(0);
    }

    // ---------------------------------------------------------------- Redis: raw EVALSHA, Throttle, Bucket4j

    /** The call a method's plan makes for one identity: every limit of one bucket, weight 1 (as {@code MethodPlan.call}). */
    StoreCall call(String bucketHead, String identity, Limit[] limits, long now) {
        return StoreCall.of(codec.key(bucketHead, identity), limits, ONES[limits.length], now, true);
    }

    static final long[][] ONES = {{}, {1}, {1, 1}, {1, 1, 1}, {1, 1, 1, 1}};

    static boolean allowed(Object r) {
        return r instanceof Decision d && d.allowed() && !d.isUnmetered();
    }

    /** The EVALSHA that Throttle sends for {@code key} (its exact ARGV), for redis-benchmark. */
    List<String> evalsha(String key, Limit[] limits) {
        StoreCall c = call(codec.bucketHead("bench"), "x", limits, -1);
        List<String> cmd = new ArrayList<>(List.of("EVALSHA", SlidingWindowScript.SHA1, "1", key));
        cmd.addAll(Arrays.asList(SlidingWindowScript.args(c, 0)));
        return cmd;
    }

    static final String PIPELINED = "-pipelined";

    static final String MINIMAL_SCRIPT = "redis.call('HGET', KEYS[1], 'h') redis.call('HSET', KEYS[1], 'h', ARGV[2]) return 1";

    /**
     * The same call with the time given, as {@code throttle.time-source=client} sends it (and as the
     * article's script always takes it): one fixed instant for the whole run, like the article's call, and
     * keys of their own.
     */
    List<String> clientClock(List<String> evalsha) {
        List<String> cmd = new ArrayList<>(evalsha);
        cmd.set(3, codec.key(codec.bucketHead("client"), "key:__rand_int__"));
        cmd.set(4, Long.toString(System.currentTimeMillis(), 36));
        return cmd;
    }

    final Map<String, Double> estimates = new HashMap<>();
    /** Redis CPU per call (µs) of the script rows at 64 connections, for the instruction rows' model. */
    final Map<String, Double> scriptCpu = new HashMap<>();

    /** redis-benchmark for about {@code seconds}, its request count sized from the last figure. */
    double rawRate(String name, int c, int randomKeys, List<String> command) {
        return rawRate(name, c, 1, randomKeys, command);
    }

    /** As above, each of the {@code c} connections keeping {@code pipeline} requests in flight. */
    double rawRate(String name, int c, int pipeline, int randomKeys, List<String> command) {
        String k = name + c + "x" + pipeline;
        Double est = estimates.get(k);
        if (est == null) {
            est = Ext.redisBenchmark(redis.port, c, pipeline, 5_000L * Math.max(1, c * pipeline / 4), randomKeys, command);
        }
        double v = Ext.redisBenchmark(redis.port, c, pipeline, Math.max(2_000, (long) (est * seconds)), randomKeys, command);
        estimates.put(k, v);
        return v;
    }

    void redisRows() throws Exception {
        log("Redis rows");
        redis.admin.scriptLoad(SlidingWindowScript.TEXT);
        String part = codec.bucketHead("bench");
        List<String> rawRand = evalsha(codec.key(part, "key:__rand_int__"), HIGH);
        List<String> rawHot = evalsha(codec.key(part, "key:hot"), HIGH);

        RedisStore store = new RedisStore(redis.uri(), Duration.ofSeconds(2));
        Decider decider = new Decider(store, InstantSource.system(), false, Duration.ofSeconds(2), false, Duration.ofSeconds(1));

        RedisClient b4jClient = RedisClient.create(redis.uri());
        StatefulRedisConnection<byte[], byte[]> b4jConnection = b4jClient.connect(ByteArrayCodec.INSTANCE);
        ProxyManager<byte[]> b4j = Bucket4jLettuce.casBasedBuilder(b4jConnection)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                .build();
        BucketConfiguration conf = bucket4jConfiguration(HIGH);
        byte[][] b4jKeys = new byte[IDENTITIES][];
        for (int i = 0; i < IDENTITIES; i++) {
            b4jKeys[i] = ("b4j:bench:" + ids[i]).getBytes(StandardCharsets.UTF_8);
        }
        byte[] b4jHot = "b4j:bench:key:hot".getBytes(StandardCharsets.UTF_8);

        Stats s = new Stats();
        for (int round = 0; round < rounds; round++) {
            for (int c : CALLERS) {
                s.add("raw-rand", c, rawRate("raw-rand", c, IDENTITIES, rawRand));
                s.add("thr-rand", c, Load.async(c, warm, seconds,
                        () -> decider.decide(call(part, ids[ThreadLocalRandom.current().nextInt(IDENTITIES)], HIGH, decider.now()), HIGH),
                        Bench::allowed));
                s.add("b4j-async-rand", c, Load.async(c, warm, seconds,
                        () -> b4j.asAsync().builder().build(b4jKeys[ThreadLocalRandom.current().nextInt(IDENTITIES)], conf).tryConsume(1),
                        Boolean.TRUE::equals));
                s.add("b4j-sync-rand", c, Load.threads(c, warm, seconds,
                        () -> b4j.builder().build(b4jKeys[ThreadLocalRandom.current().nextInt(IDENTITIES)], conf).tryConsume(1)));
                s.add("raw-hot", c, rawRate("raw-hot", c, 0, rawHot));
                s.add("thr-hot", c, Load.async(c, warm, seconds,
                        () -> decider.decide(call(part, "key:hot", HIGH, decider.now()), HIGH), Bench::allowed));
                s.add("b4j-async-hot", c, Load.async(c, warm, seconds,
                        () -> b4j.asAsync().builder().build(b4jHot, conf).tryConsume(1), Boolean.TRUE::equals));
                s.add("b4j-sync-hot", c, Load.threads(c, warm, seconds,
                        () -> b4j.builder().build(b4jHot, conf).tryConsume(1)));
                log(f("  round %d, %d callers: raw %s, Throttle %s, Bucket4j async %s (random identities)", round + 1, c,
                        rate(s.all("raw-rand", c).get(round)), rate(s.all("thr-rand", c).get(round)), rate(s.all("b4j-async-rand", c).get(round))));
            }
        }
        store.close();
        b4jConnection.close();
        b4jClient.shutdown();

        out.add("");
        out.add("### Redis: decisions per second (three limits 1 s + 1 min + 1 h by 1 min, every call allowed; one Lettuce connection per library)");
        out.add("");
        out.add("| row | workload | 1 caller | 16 callers | 64 callers |");
        out.add("|---|---|---:|---:|---:|");
        String[][] rows = {
                {"(1) raw EVALSHA of Throttle's script (redis-benchmark, c connections)", "raw"},
                {"(2) Throttle Redis store, async API", "thr"},
                {"(3) Bucket4j 8.19 Lettuce proxy, async", "b4j-async"},
                {"(3) Bucket4j 8.19 Lettuce proxy, sync (c threads)", "b4j-sync"}};
        for (String w : new String[] {"rand", "hot"}) {
            for (String[] r : rows) {
                String n = r[1] + "-" + w;
                out.add("| " + r[0] + " | " + (w.equals("rand") ? "10,000 random identities" : "one hot identity")
                        + " | " + rate(s.median(n, 1)) + " | " + rate(s.median(n, 16)) + " | " + rate(s.median(n, 64)) + " |");
            }
            out.add("| Throttle / raw EVALSHA | " + w + " | " + x(s.ratio("thr-" + w, "raw-" + w, 1)) + " | "
                    + x(s.ratio("thr-" + w, "raw-" + w, 16)) + " | " + x(s.ratio("thr-" + w, "raw-" + w, 64)) + " |");
            out.add("| Throttle / Bucket4j async | " + w + " | " + x(s.ratio("thr-" + w, "b4j-async-" + w, 1)) + " | "
                    + x(s.ratio("thr-" + w, "b4j-async-" + w, 16)) + " | " + x(s.ratio("thr-" + w, "b4j-async-" + w, 64)) + " |");
            out.add("| Throttle / Bucket4j sync | " + w + " | " + x(s.ratio("thr-" + w, "b4j-sync-" + w, 1)) + " | "
                    + x(s.ratio("thr-" + w, "b4j-sync-" + w, 16)) + " | " + x(s.ratio("thr-" + w, "b4j-sync-" + w, 64)) + " |");
        }
        double vsRaw = s.ratio("thr-rand", "raw-rand", 64);
        double vsRawHot = s.ratio("thr-hot", "raw-hot", 64);
        verdict(vsRaw >= 0.90, f("Redis store via API ≥ 0.90 × raw EVALSHA at 64 callers: %s (random identities), %s (hot identity)", x(vsRaw), x(vsRawHot)));
        double hotA = s.ratio("thr-hot", "b4j-async-hot", 64);
        double hotS = s.ratio("thr-hot", "b4j-sync-hot", 64);
        verdict(Math.min(hotA, hotS) >= 10, f("one hot identity, 64 callers ≥ 10 × Bucket4j-Lettuce: %s its async proxy, %s its sync proxy", x(hotA), x(hotS)));
        double randA = s.ratio("thr-rand", "b4j-async-rand", 64);
        verdict(randA >= 1.2, f("10,000 random identities, 64 callers ≥ 1.2 × Bucket4j async proxy: %s", x(randA)));
    }

    static BucketConfiguration bucket4jConfiguration(Limit[] limits) {
        var b = BucketConfiguration.builder();
        for (Limit l : limits) {
            b.addLimit(bandwidth(l));
        }
        return b.build();
    }

    static Bandwidth bandwidth(Limit l) {
        return Bandwidth.builder().capacity(l.limit()).refillGreedy(l.limit(), Duration.ofMillis(l.durationMillis())).build();
    }

    // ---------------------------------------------------------------- the scripts server-side

    void scriptRows() {
        log("Script rows");
        String seed = resource("/bench/seed-article-sliding-window.lua");
        String seedSha = redis.admin.scriptLoad(seed);
        redis.admin.scriptLoad(SlidingWindowScript.TEXT);
        String part = codec.bucketHead("script");
        List<String> throttle = evalsha(codec.key(part, "key:__rand_int__"), HIGH);
        List<String> article = List.of("EVALSHA", seedSha, "1", "seed:script:key:__rand_int__", SEED_HIGH,
                Long.toString(System.currentTimeMillis() / 1000), "1");
        int c = 64;
        // where Throttle's script spends Redis CPU: the same call, the script cut short at successive points
        String text = SlidingWindowScript.TEXT;
        String[][] cuts = {
                {"nop", "`return 1` (EVALSHA's own cost)", null},
                {"args", "Throttle's script up to its ARGV parsing and `TIME`", "local floor = math.floor"},
                {"hmget", "… plus the headers read (`HMGET`)", "  local out, o, before, after = {"},
                {"read", "… plus the decision, reply and writes prepared", "if allowed then\n"},
                {"write", "… plus the writes (`HSET`, `PTTL`/`PEXPIRE` when the key's end moves)", "if mode == '2' then\n  for y"}};
        Map<String, List<String>> commands = new java.util.LinkedHashMap<>();
        commands.put("throttle", throttle);
        commands.put("client", clientClock(throttle));
        commands.put("seed", article);
        List<String> floor = new ArrayList<>(throttle);
        floor.set(1, redis.admin.scriptLoad(resource("/bench/floor-three-headers.lua")));
        commands.put("floor", floor);
        // the least a script that keeps state can cost: one field read and written, the article's arguments
        commands.put("minimal", List.of("EVALSHA", redis.admin.scriptLoad(MINIMAL_SCRIPT), "1", "minimal:key:__rand_int__",
                SEED_HIGH, Long.toString(System.currentTimeMillis() / 1000), "1"));
        for (String[] cut : cuts) {
            String body = cut[2] == null ? "return 1" : text.replace(cut[2], "do return 1 end\n" + cut[2]);
            if (cut[2] != null && body.equals(text)) {
                throw new IllegalStateException("no cut point " + cut[2]);
            }
            String sha = redis.admin.scriptLoad(body);
            List<String> cmd = new ArrayList<>(throttle);
            cmd.set(1, sha);
            commands.put(cut[0], cmd);
        }
        // the same calls pipelined (16 in flight on each of the 64 connections), as a client library sends them
        // over a shared connection: each request's socket work is shared with others, the scripts' own work is not
        for (String which : List.of("client", "seed")) {
            commands.put(which + PIPELINED, commands.get(which));
        }
        Stats s = new Stats();
        for (int round = -1; round < rounds; round++) {
            for (Map.Entry<String, List<String>> en : commands.entrySet()) {
                String which = en.getKey();
                List<String> cmd = en.getValue();
                redis.admin.configResetstat();
                double cpu0 = redis.cpuSeconds();
                double rps = rawRate("script-" + which, c, which.endsWith(PIPELINED) ? 16 : 1, IDENTITIES, cmd);
                double cpu1 = redis.cpuSeconds();
                Map<String, Long> calls = redis.commandCalls();
                long decisions = calls.getOrDefault("evalsha", 0L);
                long inside = 0;
                for (Map.Entry<String, Long> e : calls.entrySet()) {
                    if (!e.getKey().equals("evalsha") && !e.getKey().startsWith("config") && !e.getKey().equals("info")) {
                        inside += e.getValue();
                    }
                }
                if (round >= 0) {
                    s.add(which, c, rps);
                    s.add(which + "-cpu", c, (cpu1 - cpu0) / decisions * 1e6);
                    s.add(which + "-cmds", c, (double) inside / decisions);
                    log(f("  round %d: %s %s, %.1f µs CPU, %.2f commands per decision %s", round + 1, which, rate(rps),
                            (cpu1 - cpu0) / decisions * 1e6, (double) inside / decisions, calls));
                }
            }
        }
        out.add("");
        out.add("### The script server-side (redis-benchmark, 64 clients, 10,000 random identities, limits 1 s + 1 min + 1 h by 1 min, every call allowed)");
        out.add("");
        out.add("| script | decisions/s | Redis commands per decision (inside the script) | Redis CPU per decision |");
        out.add("|---|---:|---:|---:|");
        out.add(f("| Throttle `sliding-window.lua` (server clock: `TIME` inside, the default) | %s | %.2f | %.1f µs |", rate(s.median("throttle", c)),
                s.median("throttle-cmds", c), s.median("throttle-cpu", c)));
        out.add(f("| Throttle `sliding-window.lua` (client clock: the time in ARGV, like the article's script) | %s | %.2f | %.1f µs |", rate(s.median("client", c)),
                s.median("client-cmds", c), s.median("client-cpu", c)));
        out.add(f("| 2014 article's sliding-window script (`bench/harness/src/main/resources/bench/seed-article-sliding-window.lua`) | %s | %.2f | %.1f µs |",
                rate(s.median("seed", c)), s.median("seed-cmds", c), s.median("seed-cpu", c)));
        double r = s.ratio("throttle", "seed", c);
        double rc = s.ratio("client", "seed", c);
        out.add(f("| Throttle (server clock) / article | %s | | %s less CPU |", x(r), x(s.ratio("seed-cpu", "throttle-cpu", c))));
        out.add(f("| Throttle (client clock) / article | %s | | %s less CPU |", x(rc), x(s.ratio("seed-cpu", "client-cpu", c))));
        out.add(f("| pipelined, 16 in flight per connection: Throttle (client clock) | %s | %.2f | %.1f µs |", rate(s.median("client" + PIPELINED, c)),
                s.median("client" + PIPELINED + "-cmds", c), s.median("client" + PIPELINED + "-cpu", c)));
        out.add(f("| pipelined, 16 in flight per connection: article | %s | %.2f | %.1f µs |", rate(s.median("seed" + PIPELINED, c)),
                s.median("seed" + PIPELINED + "-cmds", c), s.median("seed" + PIPELINED + "-cpu", c)));
        double rp = s.ratio("client" + PIPELINED, "seed" + PIPELINED, c);
        out.add(f("| pipelined: Throttle (client clock) / article | %s | | %s less CPU |", x(rp),
                x(s.ratio("seed" + PIPELINED + "-cpu", "client" + PIPELINED + "-cpu", c))));
        out.add("");
        out.add("Where Throttle's script spends its time (same calls, script cut short; Redis CPU per call):");
        out.add("");
        out.add("| script | calls/s | Redis CPU per call |");
        out.add("|---|---:|---:|");
        for (String[] cut : cuts) {
            out.add(f("| %s | %s | %.1f µs |", cut[1], rate(s.median(cut[0], c)), s.median(cut[0] + "-cpu", c)));
        }
        out.add(f("| the whole script (also builds the reply) | %s | %.1f µs |", rate(s.median("throttle", c)), s.median("throttle-cpu", c)));
        out.add(f("| floor: a script of the same shape that decides nothing (`TIME`, `HMGET` of 3 packed headers, `HSET` of 3, constant reply: `bench/floor-three-headers.lua`) | %s | %.1f µs |",
                rate(s.median("floor", c)), s.median("floor-cpu", c)));
        out.add(f("| minimal: one field read and written (`HGET`, `HSET`), the article's three arguments | %s | %.1f µs |",
                rate(s.median("minimal", c)), s.median("minimal-cpu", c)));
        for (String which : List.of("nop", "seed", "client", "throttle", "floor")) {
            scriptCpu.put(which, s.median(which + "-cpu", c));
        }
        out.add("");
        out.add(f("The floor runs at %s the article's script, the minimal script at %s.", x(s.ratio("floor", "seed", c)),
                x(s.ratio("minimal", "seed", c))));
        out.add("");
        verdict(rc >= 2, f("Throttle script ≥ 2 × the article's script at 64 clients, both given the time: %s decisions/s (%s less Redis CPU"
                + " per decision); with the server clock (TIME inside, which the article's script does not run): %s (%s less CPU);"
                + " pipelined (16 in flight per client): %s (%s less CPU)",
                x(rc), x(s.ratio("seed-cpu", "client-cpu", c)), x(r), x(s.ratio("seed-cpu", "throttle-cpu", c)), x(rp),
                x(s.ratio("seed" + PIPELINED + "-cpu", "client" + PIPELINED + "-cpu", c))));
    }

    // ---------------------------------------------------------------- the scripts, instructions counted

    /**
     * The scripts of {@link #scriptRows} in a redis-server run under valgrind's callgrind: instructions that
     * Redis executes per call (user space: the script, the commands it runs, request parsing, the reply),
     * counted rather than timed, so the same on a busy machine. 1,000 identities are called once, then
     * {@code CALLS} more calls over them are counted.
     */
    void instructionRows() throws Exception {
        log("Instruction rows (redis-server under valgrind)");
        final int calls = 2_000;
        Map<String, Long> perCall = new java.util.LinkedHashMap<>();
        Path dir = Files.createTempDirectory("throttle-bench-callgrind-");
        List<String> wrapper = List.of("valgrind", "--tool=callgrind", "--callgrind-out-file=" + dir.resolve("callgrind.out.%p"));
        try (RedisServer vg = new RedisServer(wrapper)) {
            String part = codec.bucketHead("script");
            Map<String, List<String>> commands = new java.util.LinkedHashMap<>();
            List<String> throttle = evalsha(codec.key(part, "key:__rand_int__"), HIGH);
            throttle.set(1, vg.admin.scriptLoad(SlidingWindowScript.TEXT));
            commands.put("throttle", throttle);
            commands.put("client", clientClock(throttle));
            commands.put("seed", List.of("EVALSHA", vg.admin.scriptLoad(resource("/bench/seed-article-sliding-window.lua")), "1",
                    "seed:script:key:__rand_int__", SEED_HIGH, Long.toString(System.currentTimeMillis() / 1000), "1"));
            List<String> floor = new ArrayList<>(throttle);
            floor.set(1, vg.admin.scriptLoad(resource("/bench/floor-three-headers.lua")));
            commands.put("floor", floor);
            List<String> nop = new ArrayList<>(throttle);
            nop.set(1, vg.admin.scriptLoad("return 1"));
            commands.put("nop", nop);
            // another layout's least cost: the three windows' fifteen arguments as one, every window in one field
            List<String> client = commands.get("client");
            List<String> four = new ArrayList<>(client.subList(0, 7));
            four.add(String.join(",", client.subList(7, client.size())));
            List<String> nop4 = new ArrayList<>(four);
            nop4.set(1, nop.get(1));
            commands.put("nop4", nop4);
            List<String> oneField = new ArrayList<>(four);
            oneField.set(1, vg.admin.scriptLoad(resource("/bench/floor-one-field.lua")));
            oneField.set(3, codec.key(codec.bucketHead("onefield"), "key:__rand_int__"));
            commands.put("onefield", oneField);
            String pid = Long.toString(vg.pid());
            for (Map.Entry<String, List<String>> en : commands.entrySet()) {
                Ext.redisBenchmark(vg.port, 4, 1_000, 1_000, en.getValue());
                vg.admin.configResetstat();
                Ext.run(List.of("callgrind_control", "-z", pid));
                Ext.redisBenchmark(vg.port, 4, calls, 1_000, en.getValue());
                Ext.run(List.of("callgrind_control", "-d", pid));
                long n = vg.commandCalls().getOrDefault("evalsha", 0L);
                long ir = newestDumpInstructions(dir);
                perCall.put(en.getKey(), ir / n);
                log(f("  %s: %d calls, %d instructions per call", en.getKey(), n, ir / n));
            }
            // the calls after idle gaps of the window rows, 1,000 identities
            RedisStore store = new RedisStore(vg.uri(), Duration.ofSeconds(30));
            Decider decider = new Decider(store, InstantSource.system(), true, Duration.ofSeconds(30), false, Duration.ofSeconds(1));
            for (String which : new String[] {"sliding", "fixed"}) {
                Limit[] l = which.equals("sliding") ? SLIDING_HOUR : FIXED_HOUR;
                long later = gapSetUp(vg, decider, codec.bucketHead("ig" + which), l, 4, 1_000);
                vg.admin.configResetstat();
                Ext.run(List.of("callgrind_control", "-z", pid));
                drain(4, 1_000, i -> decider.decide(call(codec.bucketHead("ig" + which), identity(i), l, later), l));
                Ext.run(List.of("callgrind_control", "-d", pid));
                long n = vg.commandCalls().getOrDefault("evalsha", 0L);
                long ir = newestDumpInstructions(dir);
                perCall.put(which + "-gap", ir / n);
                log(f("  %s after gaps: %d calls, %d instructions per call", which, n, ir / n));
            }
            store.close();
        }
        out.add("");
        out.add("### The same scripts, instructions counted (redis-server under valgrind's callgrind; 2,000 calls over 1,000 identities after one call each; user-space instructions per call)");
        out.add("");
        out.add("| script | Redis instructions per call | beyond `return 1` |");
        out.add("|---|---:|---:|");
        long base = perCall.get("nop");
        out.add(f("| `return 1`, Throttle's KEYS and ARGV | %,d | |", base));
        out.add(f("| floor (`bench/floor-three-headers.lua`) | %,d | %,d |", perCall.get("floor"), perCall.get("floor") - base));
        out.add(f("| Throttle `sliding-window.lua`, server clock | %,d | %,d |", perCall.get("throttle"), perCall.get("throttle") - base));
        out.add(f("| Throttle `sliding-window.lua`, client clock | %,d | %,d |", perCall.get("client"), perCall.get("client") - base));
        out.add(f("| 2014 article's script | %,d | %,d |", perCall.get("seed"), perCall.get("seed") - base));
        out.add(f("| article / Throttle, server clock | %.2f× | %.2f× |", perCall.get("seed") / (double) perCall.get("throttle"),
                (perCall.get("seed") - base) / (double) (perCall.get("throttle") - base)));
        out.add(f("| article / Throttle, client clock | %.2f× | %.2f× |", perCall.get("seed") / (double) perCall.get("client"),
                (perCall.get("seed") - base) / (double) (perCall.get("client") - base)));
        out.add(f("| `return 1`, the same KEYS, four arguments (the windows' fifteen joined in one) | %,d | %,d |",
                perCall.get("nop4"), perCall.get("nop4") - base));
        out.add(f("| floor of another layout: every window in one field (`HGET`, `HSET`), four arguments, given the time (`bench/floor-one-field.lua`) | %,d | %,d |",
                perCall.get("onefield"), perCall.get("onefield") - base));
        out.add("");
        instructionModel(perCall);
        out.add("A call after idle gaps (the window rows' workload below, 1,000 identities, through `RedisStore`):");
        out.add("");
        out.add("| window | Redis instructions per call |");
        out.add("|---|---:|");
        out.add(f("| 1 h by 1 s (3 sub-buckets leave) | %,d |", perCall.get("sliding-gap")));
        out.add(f("| fixed 1 h | %,d |", perCall.get("fixed-gap")));
        out.add(f("| fixed / sliding | %.2f× |", perCall.get("fixed-gap") / (double) perCall.get("sliding-gap")));
    }

    /**
     * What 2 × the article's decisions/s asks of a script, one request at a time on each connection: Redis CPU
     * per call taken as K + c × instructions (K: the kernel's share of a request, which callgrind does not
     * see), fitted to {@code return 1} and the article's script, whose CPU the script rows measured in this
     * run.
     */
    void instructionModel(Map<String, Long> perCall) {
        if (!scriptCpu.containsKey("nop")) {
            out.add("(Run the script rows in the same run for what 2 × the article's script asks of a script.)");
            return;
        }
        double cNop = scriptCpu.get("nop");
        double cSeed = scriptCpu.get("seed");
        double per = (cSeed - cNop) / (perCall.get("seed") - perCall.get("nop"));
        double k = cNop - per * perCall.get("nop");
        long needed = (long) ((cSeed / 2 - k) / per);
        out.add(f("Redis CPU per call, one request at a time on each of 64 connections, fits K + c × instructions: from `return 1`"
                        + " and the article's script in this run, K = %.1f µs (the request's kernel share, not counted) and c = %.1f µs per"
                        + " 100,000 instructions. It predicts %.1f µs for Throttle's script given the time (measured %.1f µs) and %.1f µs"
                        + " for the floor (measured %.1f µs). 2 × the article's decisions/s needs ≤ %.1f µs, that is ≤ %,d instructions per"
                        + " call: Throttle's script (given the time) is %s, the floor of its layout (which also reads `TIME`) %s, the floor"
                        + " of one field and four arguments %s, before any decision logic.",
                k, per * 100_000, k + per * perCall.get("client"), scriptCpu.get("client"), k + per * perCall.get("floor"),
                scriptCpu.get("floor"), cSeed / 2, needed, against(perCall.get("client"), needed),
                against(perCall.get("floor"), needed), against(perCall.get("onefield"), needed)));
        out.add("");
    }

    /** "n above it" or "n below it". */
    static String against(long instructions, long bound) {
        return f("%,d %s it", Math.abs(instructions - bound), instructions > bound ? "above" : "below");
    }

    /** The instruction total of the newest callgrind dump in {@code dir}. */
    static long newestDumpInstructions(Path dir) throws IOException {
        Path newest = null;
        int part = -1;
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                int dot = name.lastIndexOf('.');
                if (name.startsWith("callgrind.out.") && dot > 0) {
                    try {
                        int n = Integer.parseInt(name.substring(dot + 1));
                        if (n > part && name.indexOf('.', "callgrind.out.".length()) == dot) {
                            part = n;
                            newest = p;
                        }
                    } catch (NumberFormatException ignored) {
                        // the final profile, written at exit
                    }
                }
            }
        }
        if (newest == null) {
            throw new IllegalStateException("no callgrind dump in " + dir);
        }
        for (String line : Files.readAllLines(newest)) {
            if (line.startsWith("summary:")) {
                return Long.parseLong(line.substring("summary:".length()).trim());
            }
        }
        throw new IllegalStateException("no summary in " + newest);
    }

    // ---------------------------------------------------------------- 1 h by 1 s vs fixed 1 h

    /** Runs {@code total} calls from {@code callers} concurrent callers; calls per second. */
    static double drain(int callers, int total, IntFunction<CompletionStage<?>> op) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(callers);
        AtomicInteger bad = new AtomicInteger();
        long t0 = System.nanoTime();
        for (int i = 0; i < callers; i++) {
            new Object() {
                void go() {
                    int n;
                    while ((n = next.getAndIncrement()) < total) {
                        CompletableFuture<?> f = op.apply(n).toCompletableFuture();
                        if (f.isDone()) {
                            if (!allowed(f.join())) {
                                bad.incrementAndGet();
                            }
                            continue;
                        }
                        f.whenComplete((r, e) -> {
                            if (e != null || !allowed(r)) {
                                bad.incrementAndGet();
                            }
                            go();
                        });
                        return;
                    }
                    done.countDown();
                }
            }.go();
        }
        done.await();
        double rate = total / ((System.nanoTime() - t0) / 1e9);
        if (bad.get() > 0) {
            throw new IllegalStateException(bad.get() + " of " + total + " calls not allowed");
        }
        return rate;
    }

    void windowRows() throws Exception {
        log("Window rows");
        RedisStore store = new RedisStore(redis.uri(), Duration.ofSeconds(2));
        Decider decider = new Decider(store, InstantSource.system(), true, Duration.ofSeconds(2), false, Duration.ofSeconds(1));
        Limit[] sliding = SLIDING_HOUR;
        Limit[] fixed = FIXED_HOUR;
        int c = 64;
        int n = 20_000;
        Stats s = new Stats();
        for (int round = -1; round < rounds; round++) {
            for (String which : new String[] {"sliding", "fixed"}) {
                Limit[] l = which.equals("sliding") ? sliding : fixed;
                String part = codec.bucketHead("w" + which + (round + 1));
                // steady: random identities, the real clock
                double steady = Load.async(c, warm, seconds,
                        () -> decider.decide(call(part, ids[ThreadLocalRandom.current().nextInt(IDENTITIES)], l, System.currentTimeMillis()), l),
                        Bench::allowed);
                String gapPart = codec.bucketHead("g" + which + (round + 1));
                long later = gapSetUp(redis, decider, gapPart, l, c, n);
                double gap = drain(c, n, i -> decider.decide(call(gapPart, identity(i), l, later), l));
                if (round >= 0) {
                    s.add(which + "-steady", c, steady);
                    s.add(which + "-gap", c, gap);
                }
                log(f("  round %d: %s steady %s, after gaps %s", round + 1, which, rate(steady), rate(gap)));
            }
            redis.admin.flushall();
        }
        store.close();
        out.add("");
        out.add("### 1 h window by 1 s (3,600 sub-buckets) vs a fixed 1 h window (Throttle Redis store, 64 callers, client time)");
        out.add("");
        out.add("| workload | 1 h by 1 s | fixed 1 h | ratio |");
        out.add("|---|---:|---:|---:|");
        out.add("| steady: 10,000 random identities, calls every second | " + rate(s.median("sliding-steady", c)) + " | "
                + rate(s.median("fixed-steady", c)) + " | " + x(s.ratio("sliding-steady", "fixed-steady", c)) + " |");
        out.add("| after idle gaps: 20,000 identities, weight in 5 sub-buckets 2.5 min apart, then one call each 65.5 min later (3 sub-buckets leave; keys aged by the 55.5 min since the last weight, as Redis would hold them then) | "
                + rate(s.median("sliding-gap", c)) + " | " + rate(s.median("fixed-gap", c)) + " | " + x(s.ratio("sliding-gap", "fixed-gap", c)) + " |");
        double a = s.ratio("sliding-steady", "fixed-steady", c);
        double b = s.ratio("sliding-gap", "fixed-gap", c);
        verdict(a >= 0.8 && b >= 0.8, f("1 h by 1 s ≥ 0.8 × fixed window: %s steady, %s after idle gaps", x(a), x(b)));
    }

    static final Limit[] SLIDING_HOUR = {Limit.of(1_000_000_000, 3_600_000, 1_000)};
    static final Limit[] FIXED_HOUR = {Limit.fixed(1_000_000_000, 3_600_000)};

    /**
     * Idle gaps: {@code n} identities get weight in 5 sub-buckets 2.5 min apart (client time, 2 h ago), and
     * their keys are aged to 65.5 min after the first; returns that time, when a call sees 3 of those
     * sub-buckets leave the window.
     */
    long gapSetUp(RedisServer server, Decider decider, String part, Limit[] l, int callers, int n) throws InterruptedException {
        long t0 = System.currentTimeMillis() - 7_200_000;
        for (int k = 0; k < 5; k++) {
            long at = t0 + k * 150_000L;
            drain(callers, n, i -> decider.decide(call(part, identity(i), l, at), l));
        }
        long later = t0 + 3_600_000 + 330_000;
        age(server, part, n, later - (t0 + 4 * 150_000L));
        return later;
    }

    /**
     * The keys of {@code n} identities as they would be {@code millis} later: client time lets the calls
     * jump ahead, but their keys' expiry counts real time, so without this a key would live on past the
     * end of its windows (and a call after the gap would find a fixed window's key that Redis had dropped).
     */
    void age(RedisServer server, String bucketHead, int n, long millis) {
        String script = "for _, k in ipairs(KEYS) do local t = redis.call('PTTL', k) - tonumber(ARGV[1]) "
                + "if t > 0 then redis.call('PEXPIRE', k, t) else redis.call('DEL', k) end end return 0";
        for (int from = 0; from < n; from += 1_000) {
            String[] keys = new String[Math.min(1_000, n - from)];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = codec.key(bucketHead, identity(from + i));
            }
            server.admin.eval(script, ScriptOutputType.INTEGER, keys, Long.toString(millis));
        }
    }

    // ---------------------------------------------------------------- Redis memory per identity

    void sizeRows() throws Exception {
        log("Size rows");
        redis.admin.flushall();
        RedisStore store = new RedisStore(redis.uri(), Duration.ofSeconds(2));
        Decider decider = new Decider(store, InstantSource.system(), true, Duration.ofSeconds(2), false, Duration.ofSeconds(1));
        String seedSha = redis.admin.scriptLoad(resource("/bench/seed-article-sliding-window.lua"));
        RedisClient client = RedisClient.create(redis.uri());
        StatefulRedisConnection<String, String> conn = client.connect();
        RedisAsyncCommands<String, String> async = conn.async();
        int n = 200;
        long now = System.currentTimeMillis();
        // one call; then a busy hour: 4 calls in every minute of the last hour (240 = the hourly limit)
        long[][] plans = {{now}, new long[240]};
        long start = now - 3_599_000;
        for (int m = 0; m < 60; m++) {
            for (int j = 0; j < 4; j++) {
                plans[1][m * 4 + j] = start + m * 60_000L + j * 15_000L;
            }
        }
        String[] names = {"one call", "a busy hour: 240 calls, 4 in each of the last 60 minutes"};
        out.add("");
        out.add("### Redis memory per identity, limits 10/s + 120/min + 240/h by 1 min (`MEMORY USAGE`, mean over " + n + " identities)");
        out.add("");
        out.add("| identity's history | Throttle | 2014 article's script |");
        out.add("|---|---:|---:|");
        double typical = 0;
        double busy = 0;
        for (int p = 0; p < plans.length; p++) {
            String part = codec.bucketHead("size" + p);
            for (long at : plans[p]) {
                drain(16, n, i -> decider.decide(call(part, identity(i), EXAMPLE, at), EXAMPLE));
                List<CompletableFuture<Long>> seedCalls = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    seedCalls.add(async.<Long>evalsha(seedSha, ScriptOutputType.INTEGER, new String[] {"seed:size" + p + ":" + identity(i)},
                            SEED_EXAMPLE, f("%.3f", at / 1000.0), "1").toCompletableFuture());
                }
                for (CompletableFuture<Long> f : seedCalls) {
                    if (f.get() != 0L) {
                        throw new IllegalStateException("the article's script denied a call of the size workload");
                    }
                }
            }
            long thr = 0;
            long seedBytes = 0;
            for (int i = 0; i < n; i++) {
                thr += redis.admin.memoryUsage(codec.key(part, identity(i)));
                seedBytes += redis.admin.memoryUsage("seed:size" + p + ":" + identity(i));
            }
            String enc = redis.admin.objectEncoding(codec.key(part, identity(0)));
            long fields = redis.admin.hlen(codec.key(part, identity(0)));
            long seedFields = redis.admin.hlen("seed:size" + p + ":" + identity(0));
            out.add(f("| %s | %d bytes (%d fields, %s) | %d bytes (%d fields) |", names[p], thr / n, fields, enc, seedBytes / n, seedFields));
            if (p == 0) {
                typical = thr / (double) n;
            } else {
                busy = thr / (double) n;
            }
        }
        conn.close();
        client.shutdown();
        store.close();
        verdict(typical <= 512 && busy <= 512, f("≤ 512 bytes of Redis memory per identity (three-limit example): %.0f bytes after one call, %.0f bytes after a busy hour",
                typical, busy));
    }

    // ---------------------------------------------------------------- memory store vs Bucket4j local

    void memoryRows() {
        log("Memory rows");
        MemoryStore store = new MemoryStore(InstantSource.system());
        Decider decider = new Decider(store, InstantSource.system(), false, Duration.ofSeconds(2), false, Duration.ofSeconds(1));
        String part = codec.bucketHead("mem");
        ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
        Stats s = new Stats();
        for (int round = 0; round < rounds; round++) {
            for (int c : CALLERS) {
                s.add("thr-rand", c, Load.threads(c, warm, seconds, () -> decider.decide(
                        call(part, ids[ThreadLocalRandom.current().nextInt(IDENTITIES)], HIGH, decider.now()), HIGH)
                        .toCompletableFuture().join().allowed()));
                s.add("b4j-rand", c, Load.threads(c, warm, seconds, () -> local(buckets,
                        codec.key(part, ids[ThreadLocalRandom.current().nextInt(IDENTITIES)])).tryConsume(1)));
                s.add("thr-hot", c, Load.threads(c, warm, seconds, () -> decider.decide(
                        call(part, "key:hot", HIGH, decider.now()), HIGH).toCompletableFuture().join().allowed()));
                s.add("b4j-hot", c, Load.threads(c, warm, seconds, () -> local(buckets, codec.key(part, "key:hot")).tryConsume(1)));
                log(f("  round %d, %d callers: Throttle %s, Bucket4j %s (random)", round + 1, c,
                        rate(s.all("thr-rand", c).get(round)), rate(s.all("b4j-rand", c).get(round))));
            }
        }
        out.add("");
        out.add("### In-process: Throttle memory store (through `Decider`) vs Bucket4j 8.19 local buckets (one per identity in a `ConcurrentHashMap`); decisions per second, c threads");
        out.add("");
        out.add("| row | workload | 1 thread | 16 threads | 64 threads |");
        out.add("|---|---|---:|---:|---:|");
        boolean met = true;
        StringBuilder ratios = new StringBuilder();
        for (String w : new String[] {"rand", "hot"}) {
            String wl = w.equals("rand") ? "10,000 random identities" : "one hot identity";
            out.add("| (4) Throttle memory store | " + wl + " | " + rate(s.median("thr-" + w, 1)) + " | " + rate(s.median("thr-" + w, 16)) + " | " + rate(s.median("thr-" + w, 64)) + " |");
            out.add("| (4) Bucket4j local | " + wl + " | " + rate(s.median("b4j-" + w, 1)) + " | " + rate(s.median("b4j-" + w, 16)) + " | " + rate(s.median("b4j-" + w, 64)) + " |");
            out.add("| Throttle / Bucket4j | " + wl + " | " + x(s.ratio("thr-" + w, "b4j-" + w, 1)) + " | " + x(s.ratio("thr-" + w, "b4j-" + w, 16)) + " | " + x(s.ratio("thr-" + w, "b4j-" + w, 64)) + " |");
            for (int c : CALLERS) {
                double r = s.ratio("thr-" + w, "b4j-" + w, c);
                met &= r >= 1.0;
                ratios.append(ratios.length() == 0 ? "" : ", ").append(wl).append(" ").append(c).append(": ").append(x(r));
            }
        }
        verdict(met, "memory store ≥ 1.0 × Bucket4j local: " + ratios);
        store.close();
    }

    /**
     * The in-process path of one decision, stage by stage (one thread, one hot identity, the memory store):
     * each loop adds one stage to the previous one, so the differences are what each stage costs.
     */
    void pathRows() {
        log("Path rows");
        MemoryStore store = new MemoryStore(InstantSource.system());
        Decider decider = new Decider(store, InstantSource.system(), false, Duration.ofSeconds(2), false, Duration.ofSeconds(1));
        String part = codec.bucketHead("path");
        ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
        String[] stages = {"key", "call", "store", "decision", "bucket4j", "probe"};
        Stats s = new Stats();
        int n = 2_000_000;
        for (int round = -1; round < rounds; round++) {
            long sink = 0;
            long[] t = new long[stages.length + 1];
            t[0] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += codec.key(part, "key:hot").length();
            }
            t[1] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += call(part, "key:hot", HIGH, -1).pairCount();
            }
            t[2] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += store.decideNow(call(part, "key:hot", HIGH, -1)).figures().length;
            }
            t[3] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += decider.decide(call(part, "key:hot", HIGH, -1), HIGH).toCompletableFuture().join().quotas().size();
            }
            t[4] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += local(buckets, codec.key(part, "key:hot")).tryConsume(1) ? 1 : 0;
            }
            t[5] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += local(buckets, codec.key(part, "key:hot")).tryConsumeAndReturnRemaining(1).getRemainingTokens();
            }
            t[6] = System.nanoTime();
            if (round >= 0) {
                for (int j = 0; j < stages.length; j++) {
                    s.add(stages[j], 1, (t[j + 1] - t[j]) / (double) n);
                }
                log(f("  round %d: key %.0f ns, + store call %.0f ns, + memory store %.0f ns, + decision %.0f ns; Bucket4j %.0f ns (%d)",
                        round + 1, s.median("key", 1), s.median("call", 1), s.median("store", 1), s.median("decision", 1),
                        s.median("bucket4j", 1), sink % 10));
            }
        }
        out.add("");
        out.add("### In-process path of one decision (one thread, one hot identity, three limits; ns per call, each row adds one stage)");
        out.add("");
        out.add("| stage | ns per call | the stage alone |");
        out.add("|---|---:|---:|");
        String[] names = {"the key (`KeyCodec.key`)", "+ the `StoreCall`", "+ `MemoryStore.decideNow`", "+ `Decider` and the `Decision` (the whole path)"};
        for (int j = 0; j < 4; j++) {
            double v = s.median(stages[j], 1);
            out.add(f("| %s | %.0f | %.0f |", names[j], v, j == 0 ? v : v - s.median(stages[j - 1], 1)));
        }
        out.add(f("| Bucket4j local: the key + `tryConsume(1)` | %.0f | |", s.median("bucket4j", 1)));
        out.add(f("| Bucket4j local: the key + `tryConsumeAndReturnRemaining(1)` | %.0f | |", s.median("probe", 1)));
        store.close();
    }

    static Bucket local(ConcurrentHashMap<String, Bucket> buckets, String key) {
        Bucket b = buckets.get(key);
        if (b == null) {
            b = buckets.computeIfAbsent(key, k -> {
                var builder = Bucket.builder();
                for (Limit l : HIGH) {
                    builder.addLimit(bandwidth(l));
                }
                return builder.build();
            });
        }
        return b;
    }

    // ---------------------------------------------------------------- memory-store heap, in a fresh JVM

    void heapRows() {
        log("Heap rows");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String o = Ext.run(List.of(java, "-Xmx1g", "-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"), Heap.class.getName(), "1000000"));
        Map<String, String> m = new HashMap<>();
        for (String line : o.split("\n")) {
            int i = line.indexOf('=');
            if (i > 0) {
                m.put(line.substring(0, i).trim(), line.substring(i + 1).trim());
            }
        }
        double full = Double.parseDouble(m.get("heapMB"));
        double after = Double.parseDouble(m.get("afterEvictionMB"));
        out.add("");
        out.add("### Memory store heap, 1,000,000 identities, limits 10/s + 120/min + 240/h by 1 min, one call each (fresh JVM, heap used after full GC, minus the empty store)");
        out.add("");
        out.add("| | identities held | heap |");
        out.add("|---|---:|---:|");
        out.add(f("| after 1,000,000 identities | %s | %.0f MB (%s bytes per identity) |", m.get("held"), full, m.get("bytesPerIdentity")));
        out.add(f("| 1 h 1 min later, after one more call (the store's own sweep, off the caller's thread, %s ms) | %s | %.1f MB |",
                m.get("sweepMillis"), m.get("heldAfter"), after));
        verdict(full <= 256 && Long.parseLong(m.get("heldAfter")) <= 1, f("1,000,000 identities ≤ 256 MB: %.0f MB; idle ones evicted: %s left", full, m.get("heldAfter")));
    }

    // ---------------------------------------------------------------- HTTP

    void httpRows() throws Exception {
        log("HTTP rows");
        String jar = System.getenv().getOrDefault("BENCH_HTTP_APP", "../../http-app/target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("no HTTP app at " + Path.of(jar).toAbsolutePath() + " (build bench/ first, or set BENCH_HTTP_APP)");
        }
        Path script = Files.createTempFile("throttle-bench-", ".lua");
        Files.writeString(script, """
                -- one of 10,000 API keys per request: each is an identity of the throttled endpoint
                request = function()
                  return wrk.format("GET", nil, { ["X-API-Key"] = "k" .. math.random(1, 10000) })
                end
                """);
        Stats s = new Stats();
        // "memory, no fields": the memory store with throttle.headers=none, so that the decision's own cost
        // shows apart from that of the fields' bytes
        String[] stores = {"memory", "memory-nofields", "redis"};
        for (String store : stores) {
            int port = RedisServer.freePort();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-jar", jar).redirectErrorStream(true)
                    .redirectOutput(Path.of("http-app-" + store + ".log").toFile());
            pb.environment().put("BENCH_HTTP_PORT", Integer.toString(port));
            if (store.equals("redis")) {
                pb.environment().put("THROTTLE_REDIS_URI", redis.uri());
            } else {
                pb.environment().remove("THROTTLE_REDIS_URI");
            }
            if (store.equals("memory-nofields")) {
                pb.environment().put("THROTTLE_HEADERS", "none");
            } else {
                pb.environment().remove("THROTTLE_HEADERS");
            }
            Process app = pb.start();
            try {
                String base = "http://127.0.0.1:" + port + "/";
                waitUp(base + "throttled", app);
                for (String ep : new String[] {"open", "fields", "throttled"}) {
                    Ext.wrk(base + ep, 64, 3, script.toString());
                }
                for (int round = 0; round < rounds; round++) {
                    for (int c : CALLERS) {
                        for (String ep : round % 2 == 0 ? new String[] {"open", "fields", "throttled"} : new String[] {"throttled", "fields", "open"}) {
                            Ext.WrkResult r = Ext.wrk(base + ep, c, Math.max(2, seconds), script.toString());
                            if (r.errors() > 0) {
                                throw new IllegalStateException(ep + " (" + store + "): " + r.errors() + " errors or non-2xx responses");
                            }
                            s.add(store + "-" + ep, c, r.requestsPerSecond());
                            s.add(store + "-" + ep + "-p99", c, r.p99Millis());
                        }
                        log(f("  %s round %d, %d connections: open %s p99 %.2f ms, throttled %s p99 %.2f ms", store, round + 1, c,
                                rate(last(s.all(store + "-open", c))), last(s.all(store + "-open-p99", c)),
                                rate(last(s.all(store + "-throttled", c))), last(s.all(store + "-throttled-p99", c))));
                    }
                }
            } finally {
                app.destroy();
                app.waitFor();
            }
        }
        out.add("");
        out.add("### (5) HTTP: wrk against one Quarkus 3.38.2 app, `/open` vs the same endpoint throttled per API key (10,000 random keys, the three limits raised so every call is allowed); the app runs once per store");
        out.add("");
        out.add("`/fields` is `/open` answering the same two `RateLimit` fields as constants: what the fields' bytes cost the server and wrk, without deciding anything. "
                + "`memory, no fields` is the memory store with `throttle.headers=none`: the decision without the fields.");
        out.add("");
        out.add("| store | connections | unthrottled req/s | `/fields` req/s | throttled req/s | ratio | throttled / `/fields` | p99 unthrottled | p99 throttled | p99 added |");
        out.add("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String store : stores) {
            for (int c : CALLERS) {
                out.add(f("| %s | %d | %s | %s | %s | %s | %s | %.2f ms | %.2f ms | %+.2f ms |", store.replace("-nofields", ", no fields"), c, rate(s.median(store + "-open", c)),
                        rate(s.median(store + "-fields", c)),
                        rate(s.median(store + "-throttled", c)), x(s.ratio(store + "-throttled", store + "-open", c)),
                        x(s.ratio(store + "-throttled", store + "-fields", c)),
                        s.median(store + "-open-p99", c), s.median(store + "-throttled-p99", c),
                        s.difference(store + "-throttled-p99", store + "-open-p99", c)));
            }
        }
        double rr = s.ratio("redis-throttled", "redis-open", 64);
        double mr = s.ratio("memory-throttled", "memory-open", 64);
        verdict(rr >= 0.85, f("HTTP, 64 connections: Redis-throttled ≥ 0.85 × unthrottled req/s: %s", x(rr)));
        verdict(mr >= 0.95, f("HTTP, 64 connections: memory-throttled ≥ 0.95 × unthrottled req/s: %s", x(mr)));
        double worst = Double.NEGATIVE_INFINITY;
        StringBuilder d = new StringBuilder();
        for (String store : new String[] {"memory", "redis"}) {
            for (int c : CALLERS) {
                double v = s.difference(store + "-throttled-p99", store + "-open-p99", c);
                worst = Math.max(worst, v);
                d.append(d.length() == 0 ? "" : ", ").append(store).append(" ").append(c).append(": ").append(f("%+.2f ms", v));
            }
        }
        verdict(worst <= 0.5, "HTTP p99 added ≤ 0.5 ms: " + d);
    }

    static double last(List<Double> v) {
        return v.get(v.size() - 1);
    }

    static void waitUp(String url, Process app) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long until = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < until && app.isAlive()) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("X-API-Key", "probe").build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the HTTP app did not answer at " + url);
    }

    // ---------------------------------------------------------------- helpers

    interface Section {
        void run() throws Exception;
    }

    /** Runs one section; a failure is reported in the table and the other sections still run. */
    void section(String name, Section section) {
        if (!only.contains(name)) {
            return;
        }
        try {
            section.run();
        } catch (Exception | Error e) {
            e.printStackTrace();
            out.add("");
            out.add("Section " + name + " FAILED: " + e);
            verdict(false, "section " + name + " failed: " + e);
        }
    }

    void verdict(boolean met, String text) {
        verdicts.add((met ? "MET: " : "MISSED: ") + text);
    }

    static void log(String s) {
        System.err.println(s);
    }

    static double env(String name, double dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : Double.parseDouble(v);
    }

    static String resource(String name) {
        try (InputStream in = Bench.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
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
