package io.github.throttle.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.github.throttle.bench.Context.CALLERS;
import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;

/**
 * wrk against the Quarkus app of {@code bench/http-app} ({@code BENCH_HTTP_APP}), once per store: {@code /open},
 * {@code /fields} and {@code /throttled} (10,000 random API keys); with the memory store also Throttle's
 * {@code /everyone} beside SmallRye Fault Tolerance's {@code /ft}; with Redis also one hot key, both endpoints on
 * the event loop and Bucket4j's {@code /bucket4j}; with both, the {@code /flood} of one key far over its limit. {@link HttpTables} prints them.
 */
final class HttpSection implements Section {

    /** "memory-nofields": the memory store with throttle.headers=none, so that the decision's own cost shows apart from that of the fields' bytes. */
    static final String[] STORES = {"memory", "memory-nometrics", "memory-nofields", "memory-live", "redis", "redis-live"};

    /** One figure's workload: a name in the results, the app's path, wrk's script. */
    private record Load(String name, String path, Path script) {
    }

    @Override
    public String name() {
        return "http";
    }

    @Override
    public void run(Context ctx) throws Exception {
        log("HTTP rows");
        String jar = System.getenv().getOrDefault("BENCH_HTTP_APP", "../../http-app/target/quarkus-app/quarkus-run.jar");
        if (!Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("no HTTP app at " + Path.of(jar).toAbsolutePath() + " (build bench/ first, or set BENCH_HTTP_APP)");
        }
        Path random = script("-- one of 10,000 API keys per request: each is an identity of the throttled endpoint",
                "\"k\" .. math.random(1, 10000)");
        Path hot = script("-- one API key for every request", "\"hot\"");
        Path flood = script("-- one API key, far over its limit", "\"flood\"");
        Stats s = new Stats();
        // BENCH_HTTP_STORES: some of the stores only (say, redis alone for a before/after of the Redis path)
        List<String> stores = List.of(System.getenv().getOrDefault("BENCH_HTTP_STORES", String.join(",", STORES)).split(","));
        for (String store : stores) {
            List<Load> loads = new ArrayList<>(List.of(new Load("open", "open", random), new Load("fields", "fields", random),
                    new Load("throttled", "throttled", random)));
            if (store.equals("memory")) {
                loads.add(new Load("everyone", "everyone", random));
                loads.add(new Load("ft", "ft", random));
            } else if (store.equals("redis")) {
                loads.add(new Load("throttled-hot", "throttled", hot));
                loads.add(new Load("open-eventloop", "open-eventloop", random));
                loads.add(new Load("throttled-eventloop", "throttled-eventloop", random));
                loads.add(new Load("bucket4j", "bucket4j", random));
                loads.add(new Load("bucket4j-hot", "bucket4j", hot));
            }
            boolean floods = store.equals("memory") || store.equals("redis");
            try (HttpApp app = new HttpApp(jar, store, ctx.redis.uri())) {
                for (Load l : loads) {
                    Processes.wrk(app.base + l.path(), 64, 3, l.script().toString());
                }
                if (floods) {
                    Processes.wrk(app.base + "flood", 64, 1, flood.toString());
                }
                for (int round = 0; round < ctx.rounds; round++) {
                    for (int c : CALLERS) {
                        List<Load> order = new ArrayList<>(loads);
                        if (round % 2 == 1) {
                            java.util.Collections.reverse(order);
                        }
                        for (Load l : order) {
                            measure(ctx, s, app, store + "-" + l.name(), l, c);
                        }
                        log(f("  %s round %d, %d connections: open %s p99 %.2f ms, throttled %s p99 %.2f ms", store, round + 1, c,
                                rate(s.last(store + "-open", c)), s.last(store + "-open-p99", c),
                                rate(s.last(store + "-throttled", c)), s.last(store + "-throttled-p99", c)));
                    }
                    if (floods) {
                        flood(ctx, s, app, store, flood);
                    }
                }
            }
        }
        HttpTables.print(ctx, s);
    }

    /** One figure: requests/s and p99; at 64 connections also where the app's CPU went, and Redis's. */
    private static void measure(Context ctx, Stats s, HttpApp app, String name, Load l, int c) {
        ThreadCpu before = c == 64 ? ThreadCpu.of(app.pid()) : null;
        double redisCpu = ctx.redis.cpuSeconds();
        Processes.WrkResult r = Processes.wrk(app.base + l.path(), c, Math.max(2, ctx.seconds), l.script().toString());
        if (r.errors() > 0) {
            throw new IllegalStateException(name + ": " + r.errors() + " errors or non-2xx responses");
        }
        s.add(name, c, r.requestsPerSecond());
        s.add(name + "-p99", c, r.p99Millis());
        if (before != null && r.requests() > 0) {
            for (Map.Entry<String, Double> e : ThreadCpu.of(app.pid()).perRequest(before, r.requests()).entrySet()) {
                s.add(name + "/" + e.getKey(), c, e.getValue());
            }
            s.add(name + "/Redis", c, (ctx.redis.cpuSeconds() - redisCpu) * 1e6 / r.requests());
        }
    }

    /** One identity far over its limit at 64 connections: denied requests/s and the script runs Redis made for them. */
    private static void flood(Context ctx, Stats s, HttpApp app, String store, Path script) {
        Map<String, Long> before = ctx.redis.commandCalls();
        Processes.WrkResult r = Processes.wrk(app.base + "flood", 64, Math.max(2, ctx.seconds), script.toString());
        Map<String, Long> after = ctx.redis.commandCalls();
        long denied = r.non2xx();
        if (denied == 0 || r.errors() != denied) {
            throw new IllegalStateException("flood (" + store + "): " + denied + " denied of " + r.requests() + ", " + (r.errors() - denied) + " socket errors");
        }
        long scripts = 0;
        for (String command : List.of("evalsha", "eval")) {
            scripts += after.getOrDefault(command, 0L) - before.getOrDefault(command, 0L);
        }
        s.add(store + "-flood", 64, r.requestsPerSecond() * denied / r.requests());
        s.add(store + "-flood-scripts", 64, (double) scripts / denied);
        log(f("  %s flood: %s denied, %.3f script runs per denied request", store, rate(s.last(store + "-flood", 64)),
                s.last(store + "-flood-scripts", 64)));
    }

    private static Path script(String comment, String key) throws java.io.IOException {
        Path script = Files.createTempFile("throttle-bench-", ".lua");
        Files.writeString(script, comment + "\nrequest = function()\n  return wrk.format(\"GET\", nil, { [\"X-API-Key\"] = "
                + key + " })\nend\n");
        return script;
    }
}
