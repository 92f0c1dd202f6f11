package io.github.throttle.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;

/**
 * wrk against the Quarkus app of {@code bench/http-app} ({@code BENCH_HTTP_APP}), once per store, row by row. A row
 * is one endpoint kind (a blocking resource method or a {@code @NonBlocking} one), one set of identities (10,000
 * random API keys, or one) and one number of connections; its rounds measure in turn {@code /throttled}, the same
 * app's {@code /open} and {@code /fields} (the fields of an allowed call, deciding nothing), and the peers the row
 * holds: Bucket4j's {@code /bucket4j} with Redis, Throttle's {@code /everyone} beside SmallRye Fault Tolerance's
 * {@code /ft} with the memory store. With both, the {@code /flood} of one key far over its limit. An app that does
 * not start, or stops, loses its own rows only: they are "not measured". {@link HttpTables} prints them.
 */
final class HttpSection implements Section {

    /** "memory-nofields": the memory store with throttle.headers=none, so that the decision's own cost shows apart from that of the fields' bytes. */
    static final String[] STORES = {"memory", "memory-nometrics", "memory-nofields", "memory-live", "redis", "redis-live"};
    /** The stores with every row; the others have the blocking endpoint with random identities only. */
    static final List<String> MAIN = List.of("memory", "redis");
    /** Connections of every row: 32 for the targets' ratios, 1, 16 and 64 for how latency grows. */
    static final int[] CONNECTIONS = {1, 16, 32, 64};
    /** The connections at which the CPU per request is measured. */
    static final int CPU_AT = 64;

    /** Where Quarkus REST runs the resource method: a worker thread, or the event loop ({@code @NonBlocking}); the paths' suffix. */
    enum Endpoint {
        BLOCKING("blocking", ""), NON_BLOCKING("`@NonBlocking`", "-eventloop");

        final String label;
        final String suffix;

        Endpoint(String label, String suffix) {
            this.label = label;
            this.suffix = suffix;
        }
    }

    /** Whose requests: wrk's key for each, and the figures' suffix. One key never exhausts the limits: every call is a full decision. */
    enum Identity {
        RANDOM("10,000 random", "", "\"k\" .. math.random(1, 10000)"), ONE("one", "-hot", "\"hot\"");

        final String label;
        final String suffix;
        final String luaKey;

        Identity(String label, String suffix, String luaKey) {
            this.label = label;
            this.suffix = suffix;
            this.luaKey = luaKey;
        }
    }

    /** One row: its paths in the order measured, throttled first, then unthrottled, fields-only and the peers. */
    record Row(String store, Endpoint endpoint, Identity identity, int connections, List<String> paths) {

        /** A path's figure in {@link Stats}: store, path, identity ({@code redis-throttled-eventloop-hot}). */
        String figure(String path) {
            return store + "-" + path + identity.suffix;
        }

        String throttled() {
            return figure(paths.get(0));
        }

        String unthrottled() {
            return figure(paths.get(1));
        }

        String fieldsOnly() {
            return figure(paths.get(2));
        }

        /** Its key in {@link Results#failed} and {@link Results#load}. */
        String key() {
            return throttled() + "@" + connections;
        }
    }

    /** What the tables print: figures, and per row key the load average at its start and end, or why it was not measured. */
    record Results(Stats stats, Map<String, String> load, Map<String, String> failed) {
    }

    /** The rows of one app. */
    static List<Row> rows(String store) {
        boolean main = MAIN.contains(store);
        List<Row> rows = new ArrayList<>();
        for (Endpoint e : main ? Endpoint.values() : new Endpoint[] {Endpoint.BLOCKING}) {
            for (Identity id : main ? Identity.values() : new Identity[] {Identity.RANDOM}) {
                for (int c : CONNECTIONS) {
                    List<String> paths = new ArrayList<>(List.of("throttled" + e.suffix, "open" + e.suffix, "fields" + e.suffix));
                    if (e == Endpoint.BLOCKING && store.equals("redis")) {
                        paths.add("bucket4j");
                    } else if (e == Endpoint.BLOCKING && store.equals("memory") && id == Identity.RANDOM) {
                        paths.addAll(List.of("everyone", "ft"));
                    }
                    rows.add(new Row(store, e, id, c, paths));
                }
            }
        }
        return rows;
    }

    /** The flood's figure key: one row at 64 connections. */
    static String floodKey(String store) {
        return store + "-flood@64";
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
        Map<Identity, Path> scripts = new EnumMap<>(Identity.class);
        for (Identity id : Identity.values()) {
            scripts.put(id, script("-- " + id.label + " API key(s): each is an identity of the throttled endpoint", id.luaKey));
        }
        Path flood = script("-- one API key, far over its limit", "\"flood\"");
        Results results = new Results(new Stats(), new HashMap<>(), new HashMap<>());
        // BENCH_HTTP_STORES: some of the stores only (say, redis alone for a before/after of the Redis path)
        for (String store : System.getenv().getOrDefault("BENCH_HTTP_STORES", String.join(",", STORES)).split(",")) {
            List<Row> rows = rows(store);
            boolean floods = MAIN.contains(store);
            try (HttpApp app = new HttpApp(jar, store, ctx.redis.uri())) {
                warm(app, rows, scripts, floods ? flood : null);
                for (Row row : rows) {
                    measure(ctx, results, app, row, scripts.get(row.identity()));
                }
                if (floods) {
                    flood(ctx, results, app, store, flood);
                }
            } catch (Exception e) {
                // the app did not start (or stopped answering): its rows not yet measured are lost, the other apps' are not
                log("  " + store + ": not measured: " + HttpApp.reason(e));
                for (Row row : rows) {
                    if (!results.load().containsKey(row.key())) {
                        results.failed().putIfAbsent(row.key(), HttpApp.reason(e));
                    }
                }
                if (floods) {
                    results.failed().putIfAbsent(floodKey(store), HttpApp.reason(e));
                }
            }
        }
        HttpTables.print(ctx, results);
    }

    /** Each path once at 64 connections, for the JIT, and the flood's key over its limit. */
    private static void warm(HttpApp app, List<Row> rows, Map<Identity, Path> scripts, Path flood) {
        Set<String> paths = new LinkedHashSet<>();
        rows.forEach(r -> paths.addAll(r.paths()));
        for (String path : paths) {
            Processes.wrk(app.base + path, 64, 3, scripts.get(Identity.RANDOM).toString());
        }
        if (flood != null) {
            Processes.wrk(app.base + "flood", 64, 1, flood.toString());
        }
    }

    /** One row: its rounds, each measuring its paths in turn (backwards in odd rounds); a failure loses this row only. */
    private static void measure(Context ctx, Results results, HttpApp app, Row row, Path script) {
        String gone = app.gone();
        if (gone != null) {
            results.failed().put(row.key(), gone);
            return;
        }
        String load = load();
        Stats s = new Stats();
        try {
            for (int round = 0; round < ctx.rounds; round++) {
                List<String> order = new ArrayList<>(row.paths());
                if (round % 2 == 1) {
                    Collections.reverse(order);
                }
                for (String path : order) {
                    figure(ctx, s, app, row.figure(path), path, row.connections(), script);
                }
            }
        } catch (RuntimeException e) {
            log(f("  %s: not measured: %s", row.key(), HttpApp.reason(e)));
            results.failed().put(row.key(), HttpApp.reason(e));
            return;
        }
        results.stats().addAll(s);
        results.load().put(row.key(), load + " → " + load());
        log(f("  %s, %s, identities: %s, %d connections: throttled %s, unthrottled %s, fields-only %s", row.store(), row.endpoint().label,
                row.identity().label, row.connections(), rate(s.median(row.throttled(), row.connections())),
                rate(s.median(row.unthrottled(), row.connections())), rate(s.median(row.fieldsOnly(), row.connections()))));
    }

    /** One figure: requests/s, p50 and p99; at {@link #CPU_AT} connections also where the app's CPU went, and Redis's. */
    private static void figure(Context ctx, Stats s, HttpApp app, String name, String path, int c, Path script) {
        ThreadCpu before = c == CPU_AT ? ThreadCpu.of(app.pid()) : null;
        double redisCpu = ctx.redis.cpuSeconds();
        Processes.WrkResult r = Processes.wrk(app.base + path, c, Math.max(2, ctx.seconds), script.toString());
        if (r.errors() > 0 || r.requests() == 0) {
            throw new IllegalStateException(name + ": " + r.errors() + " socket errors or non-2xx answers, " + r.requests() + " answers");
        }
        s.add(name, c, r.requestsPerSecond());
        s.add(name + "-p50", c, r.p50Millis());
        s.add(name + "-p99", c, r.p99Millis());
        if (before != null) {
            for (Map.Entry<String, Double> e : ThreadCpu.of(app.pid()).perRequest(before, r.requests()).entrySet()) {
                s.add(name + "/" + e.getKey(), c, e.getValue());
            }
            s.add(name + "/Redis", c, (ctx.redis.cpuSeconds() - redisCpu) * 1e6 / r.requests());
        }
    }

    /** One identity far over its limit at 64 connections, a round at a time: denied requests/s and the script runs Redis made for them. */
    private static void flood(Context ctx, Results results, HttpApp app, String store, Path script) {
        Stats s = new Stats();
        try {
            for (int round = 0; round < ctx.rounds; round++) {
                long before = ctx.redis.scriptRuns();
                Processes.WrkResult r = Processes.wrk(app.base + "flood", 64, Math.max(2, ctx.seconds), script.toString());
                long scripts = ctx.redis.scriptRuns() - before;
                long denied = r.non2xx();
                if (denied == 0 || r.errors() != denied) {
                    throw new IllegalStateException("flood (" + store + "): " + denied + " denied of " + r.requests() + ", "
                            + (r.errors() - denied) + " socket errors");
                }
                s.add(store + "-flood", 64, r.requestsPerSecond() * denied / r.requests());
                s.add(store + "-flood-scripts", 64, (double) scripts / denied);
            }
        } catch (RuntimeException e) {
            results.failed().put(floodKey(store), HttpApp.reason(e));
            return;
        }
        results.stats().addAll(s);
        log(f("  %s flood: %s denied, %.3f script runs per denied request", store, rate(s.median(store + "-flood", 64)),
                s.median(store + "-flood-scripts", 64)));
    }

    /** The one-minute load average. */
    private static String load() {
        return Bench.loadAverage().split(" ")[0];
    }

    /** A wrk script sending {@code X-API-Key} as the Lua expression {@code key} gives it, headed by {@code comment}. */
    static Path script(String comment, String key) throws java.io.IOException {
        Path script = Files.createTempFile("throttle-bench-", ".lua");
        Files.writeString(script, comment + "\nrequest = function()\n  return wrk.format(\"GET\", nil, { [\"X-API-Key\"] = "
                + key + " })\nend\n");
        return script;
    }
}
