package io.github.throttle.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;

/**
 * What one decision costs, side by side in one run: Redis CPU per decision (Redis's {@code used_cpu_user +
 * used_cpu_sys} over the requests served) beside that of a reference script run by {@code redis-benchmark}
 * on the same Redis, the app's CPU per decision (over the throttled requests, minus the unthrottled endpoint's
 * per request), requests/s and p50 — for the app of this checkout and, with {@code BENCH_HTTP_APP_BEFORE}, the
 * same app holding an earlier jar. Two shapes: one identity with one limit (a minute by seconds) at 32
 * connections, and random identities with three limits at 64. Rounds interleave the apps.
 */
final class CostSection implements Section {

    /** The reference: two HSET and two EXPIRE in one script, on random keys. */
    static final String REFERENCE = "redis.call('HSET', KEYS[1], 'n', ARGV[1]) redis.call('HSET', KEYS[2], 'n', ARGV[1]) "
            + "redis.call('EXPIRE', KEYS[1], 60) redis.call('EXPIRE', KEYS[2], 60) return 1";

    /** A workload: path, connections, wrk script. */
    private record Load(String name, String path, int connections, Path script) {
    }

    /** Figures by name over rounds (this section has no concurrency of its own: 0). */
    private final Stats figures = new Stats();
    /** Why an app ("now redis") was not measured: it did not start, or failed; the others are. */
    private final Map<String, String> failed = new LinkedHashMap<>();

    @Override
    public String name() {
        return "cost";
    }

    @Override
    public void run(Context ctx) throws Exception {
        log("Cost of a decision");
        Map<String, String> jars = new LinkedHashMap<>();
        jars.put("now", System.getenv().getOrDefault("BENCH_HTTP_APP", "../../http-app/target/quarkus-app/quarkus-run.jar"));
        String before = System.getenv("BENCH_HTTP_APP_BEFORE");
        if (before != null) {
            jars.put("before", before);
        }
        Path random = HttpSection.script("-- random identities", "\"k\" .. math.random(1, 10000)");
        Path hot = HttpSection.script("-- one identity", "\"hot\"");
        List<Load> loads = List.of(
                new Load("open-1", "open", 1, random), new Load("throttled-1", "throttled", 1, random),
                new Load("open-32", "open", 32, random), new Load("single-hot-32", "single", 32, hot),
                new Load("throttled-32", "throttled", 32, random),
                new Load("open-64", "open", 64, random), new Load("throttled-64", "throttled", 64, random));
        String sha = ctx.redis.admin.scriptLoad(REFERENCE);
        List<String> reference = List.of("EVALSHA", sha, "2", "ref:a:__rand_int__", "ref:b:__rand_int__", "1");
        List<HttpApp> apps = new ArrayList<>();
        try {
            Map<String, HttpApp> byName = new LinkedHashMap<>();
            for (Map.Entry<String, String> jar : jars.entrySet()) {
                for (String store : List.of("redis", "memory")) {
                    String name = jar.getKey() + " " + store;
                    try {
                        HttpApp app = new HttpApp(jar.getValue(), store, ctx.redis.uri());
                        apps.add(app);
                        for (Load l : loads) {
                            Processes.wrk(app.base + l.path(), l.connections(), 2, l.script().toString());
                        }
                        byName.put(name, app);
                    } catch (Exception e) {
                        notMeasured(name, e);
                    }
                }
            }
            for (int round = 0; round < ctx.rounds; round++) {
                double cpu = ctx.redis.cpuSeconds();
                long requests = Math.max(20_000, (long) (40_000 * ctx.seconds));
                double rps = Processes.redisBenchmark(ctx.redis.port, 32, requests, 10_000, reference);
                add("reference µs", (ctx.redis.cpuSeconds() - cpu) * 1e6 / requests);
                add("reference /s", rps);
                List<String> order = new ArrayList<>(byName.keySet());
                if (round % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (String name : order) {
                    try {
                        for (Load l : loads) {
                            measure(ctx, name, byName.get(name), l);
                        }
                    } catch (RuntimeException e) {
                        byName.remove(name);
                        notMeasured(name, e);
                    }
                }
                log(f("  round %d of %d done", round + 1, ctx.rounds));
            }
        } finally {
            for (HttpApp app : apps) {
                app.close();
            }
        }
        print(ctx, jars.keySet());
    }

    private void notMeasured(String app, Exception e) {
        log("  " + app + ": not measured: " + HttpApp.reason(e));
        failed.put(app, HttpApp.reason(e));
    }

    private void measure(Context ctx, String app, HttpApp http, Load l) {
        ThreadCpu cpuBefore = ThreadCpu.of(http.pid());
        double redisCpu = ctx.redis.cpuSeconds();
        Processes.WrkResult r = Processes.wrk(http.base + l.path(), l.connections(), Math.max(2, ctx.seconds), l.script().toString());
        if (r.errors() > 0 || r.requests() == 0) {
            throw new IllegalStateException(app + " " + l.name() + ": " + r.errors() + " errors of " + r.requests());
        }
        String at = app + " " + l.name();
        add(at + " /s", r.requestsPerSecond());
        add(at + " p50", r.p50Millis());
        double appCpu = 0;
        Map<String, Double> perRequest = ThreadCpu.of(http.pid()).perRequest(cpuBefore, r.requests());
        for (String family : ThreadCpu.FAMILIES) {
            appCpu += perRequest.get(family);
            add(at + " " + family + " µs", perRequest.get(family));
        }
        add(at + " voluntary µs", perRequest.getOrDefault("voluntary", Double.NaN));
        add(at + " involuntary µs", perRequest.getOrDefault("involuntary", Double.NaN));
        add(at + " app µs", appCpu);
        if (!l.path().equals("open")) {
            // the decision's own CPU: the unthrottled endpoint's per request, measured before it this round, left out
            add(at + " client µs", appCpu - figures.last(app + " open-" + l.connections() + " app µs", 0));
        }
        add(at + " Redis µs", (ctx.redis.cpuSeconds() - redisCpu) * 1e6 / r.requests());
    }

    private void add(String name, double value) {
        figures.add(name, 0, value);
    }

    private double median(String name) {
        return figures.median(name, 0);
    }

    /** The median over rounds of a per-round ratio. */
    private double ratio(String over, String under) {
        return figures.ratio(over, under, 0);
    }

    private void print(Context ctx, java.util.Set<String> jars) {
        ctx.line("");
        ctx.line("### Cost of a decision (load average " + Bench.loadAverage() + " at the end)");
        ctx.line("");
        ctx.line(f("Reference script (two HSET, two EXPIRE) by redis-benchmark at 32 connections: %.1f µs of Redis CPU a call, %.0f calls/s.",
                median("reference µs"), median("reference /s")));
        ctx.line("");
        ctx.line("| app | shape | Redis µs / decision | × reference | app µs / decision | requests/s | × unthrottled | p50 ms |");
        ctx.line("|---|---|---:|---:|---:|---:|---:|---:|");
        String[][] shapes = {{"single-hot-32", "open-32", "one identity, one limit, 32 conn."},
                {"throttled-32", "open-32", "random identities, 3 limits, 32 conn."},
                {"throttled-64", "open-64", "random identities, 3 limits, 64 conn."},
                {"throttled-1", "open-1", "random identities, 3 limits, 1 conn."}};
        for (String jar : jars) {
            for (String store : List.of("redis", "memory")) {
                String app = jar + " " + store;
                if (failed.containsKey(app)) {
                    ctx.line("| " + app + " | every shape | not measured: " + failed.get(app) + " |" + " |".repeat(5));
                    continue;
                }
                for (String[] s : shapes) {
                    String t = app + " " + s[0];
                    String o = app + " " + s[1];
                    boolean redis = store.equals("redis");
                    ctx.line(f("| %s | %s | %s | %s | %.1f | %.0f | %.2f× | %.3f |", app, s[2],
                            redis ? f("%.1f", median(t + " Redis µs")) : "–",
                            redis ? f("%.2f×", ratio(t + " Redis µs", "reference µs")) : "–",
                            median(t + " client µs"), median(t + " /s"), ratio(t + " /s", o + " /s"), median(t + " p50")));
                }
            }
        }
        ctx.line("");
        ctx.line("Where the app's CPU goes, µs per request, 64 connections, random identities, 3 limits (context switches per request):");
        ctx.line("");
        ctx.line("| app | endpoint | " + String.join(" | ", ThreadCpu.FAMILIES) + " | voluntary | involuntary |");
        ctx.line("|---|---|" + "---:|".repeat(ThreadCpu.FAMILIES.size() + 2));
        for (String jar : jars) {
            for (String store : List.of("redis", "memory")) {
                if (failed.containsKey(jar + " " + store)) {
                    continue;
                }
                for (String load : List.of("open-64", "throttled-64")) {
                    String at = jar + " " + store + " " + load;
                    StringBuilder row = new StringBuilder("| " + jar + " " + store + " | " + load.replace("-64", "") + " |");
                    for (String family : ThreadCpu.FAMILIES) {
                        row.append(f(" %.1f |", median(at + " " + family + " µs")));
                    }
                    row.append(f(" %.2f | %.2f |", median(at + " voluntary µs"), median(at + " involuntary µs")));
                    ctx.line(row.toString());
                }
            }
        }
        if (jars.contains("before")) {
            ctx.line("");
            ctx.line("| this jar ÷ the earlier one, medians of per-round ratios | app µs / decision | Redis µs / decision | requests/s | p50 |");
            ctx.line("|---|---:|---:|---:|---:|");
            for (String store : List.of("redis", "memory")) {
                String lost = failed.getOrDefault("now " + store, failed.get("before " + store));
                if (lost != null) {
                    ctx.line("| " + store + ", every shape | not measured: " + lost + " | | | |");
                    continue;
                }
                for (String[] s : shapes) {
                    String now = "now " + store + " " + s[0];
                    String was = "before " + store + " " + s[0];
                    ctx.line(f("| %s, %s | %.2f× | %s | %.2f× | %.2f× |", store, s[2], ratio(now + " client µs", was + " client µs"),
                            store.equals("redis") ? f("%.2f×", ratio(now + " Redis µs", was + " Redis µs")) : "–",
                            ratio(now + " /s", was + " /s"), ratio(now + " p50", was + " p50")));
                }
            }
        }
    }
}
