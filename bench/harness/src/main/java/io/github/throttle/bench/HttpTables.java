package io.github.throttle.bench;

import java.util.function.Predicate;
import java.util.function.Supplier;

import io.github.throttle.bench.HttpSection.Results;
import io.github.throttle.bench.HttpSection.Row;

import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/**
 * The tables of {@link HttpSection}: figures are medians over rounds, ratios medians of per-round ratios. A row
 * whose app did not start, or that failed, says so ("not measured: …") in place of its figures.
 */
final class HttpTables {

    private static final String ROW_HEAD = "| app | endpoint | identities | conn. | throttled req/s | unthrottled req/s | fields-only req/s "
            + "| throttled ÷ unthrottled | throttled ÷ fields-only | p50 ms: throttled / unthrottled / fields-only "
            + "| p99 ms: throttled / unthrottled / fields-only | load average: start → end |";
    private static final String ROW_RULE = "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|";

    private HttpTables() {
    }

    static void print(Context ctx, Results r) {
        ctx.title("(5) HTTP: wrk against one Quarkus 3.33.2 app per store, `/throttled` (per API key, the three limits raised so every call is allowed) "
                + "beside the same app's `/open` (unthrottled) and `/fields` (fields-only), interleaved round by round");
        ctx.line("Fields-only: `/open` with a response filter writing the `RateLimit-Policy` and `RateLimit` fields of an allowed call as "
                + "constants, deciding nothing; throttled ÷ fields-only is the decision's own cost. Blocking: a resource method on a worker "
                + "thread; `@NonBlocking`: on the event loop. One identity never exhausts its limits: every call is a full decision. "
                + "`memory, no fields`: `throttle.headers=none`; every app counts its calls in Micrometer but `memory, no metrics` "
                + "(`throttle.metrics=none`); `live limits`: 10,000 assignments (of keys no request sends) and every bucket and plan overridden.");
        ctx.line("");
        rows(ctx, r, row -> true);
        ctx.title("The targets' ratios: 32 connections, memory store and Redis (from the table above)");
        rows(ctx, r, row -> row.connections() == 32 && HttpSection.MAIN.contains(row.store()));
        metrics(ctx, r.stats());
        peer(ctx, r, "Throttle over Redis vs Bucket4j 8.19's Lettuce proxy at HTTP (the same three limits per API key, every call allowed)",
                "Bucket4j", "redis", "throttled", "bucket4j");
        peer(ctx, r, "Throttle's memory store vs SmallRye Fault Tolerance `@RateLimit` at HTTP (one quota per method, `key = ThrottleKey.Everyone`, every call allowed)",
                "`@RateLimit`", "memory", "everyone", "ft");
        flood(ctx, r);
        cpu(ctx, r);
    }

    /** The rows {@code which} picks, of every store run. */
    private static void rows(Context ctx, Results r, Predicate<Row> which) {
        ctx.line(ROW_HEAD);
        ctx.line(ROW_RULE);
        Stats s = r.stats();
        for (String store : HttpSection.STORES) {
            for (Row row : HttpSection.rows(store)) {
                int c = row.connections();
                String t = row.throttled();
                String u = row.unthrottled();
                String fo = row.fieldsOnly();
                line(ctx, r, row.key(), which.test(row), f("| %s | %s | %s | %d |", label(store), row.endpoint().label, row.identity().label, c), 8,
                        () -> f(" %s | %s | %s | %s | %s | %s | %s | %s |", rate(s.median(t, c)), rate(s.median(u, c)), rate(s.median(fo, c)),
                                x(s.ratio(t, u, c)), x(s.ratio(t, fo, c)), latency(s, "-p50", c, t, u, fo), latency(s, "-p99", c, t, u, fo),
                                r.load().get(row.key())));
            }
        }
    }

    /**
     * One line of a table: {@code head}, then its figures, or "not measured: why" and {@code cells} empty cells; none
     * for a line not wanted or not run ({@code BENCH_HTTP_STORES}).
     */
    private static void line(Context ctx, Results r, String key, boolean wanted, String head, int cells, Supplier<String> figures) {
        String failed = r.failed().get(key);
        if (!wanted || failed == null && !r.load().containsKey(key)) {
            return;
        }
        ctx.line(head + (failed != null ? " not measured: " + failed + " |" + " |".repeat(cells - 1) : figures.get()));
    }

    private static String latency(Stats s, String which, int c, String... figures) {
        StringBuilder out = new StringBuilder();
        for (String figure : figures) {
            out.append(out.length() == 0 ? "" : " / ").append(f("%.2f", s.median(figure + which, c)));
        }
        return out.toString();
    }

    private static String label(String store) {
        return store.replace("-nofields", ", no fields").replace("-nometrics", ", no metrics").replace("-live", ", live limits");
    }

    private static void metrics(Context ctx, Stats s) {
        ctx.title("What the metrics cost");
        ctx.line("Each app's throttled rate over its own unthrottled rate, with metrics over without "
                + "(two app instances differ by more than the metrics do, so the raw ratio is shown too).");
        ctx.line("");
        ctx.line("| connections | (throttled / open) with metrics ÷ without | throttled req/s with metrics / without |");
        ctx.line("|---:|---:|---:|");
        for (int c : HttpSection.CONNECTIONS) {
            if (Double.isNaN(s.median("memory-nometrics-open", c)) || Double.isNaN(s.median("memory-open", c))) {
                continue;
            }
            ctx.line(f("| %d | %s | %s |", c,
                    x(s.ratio("memory-throttled", "memory-open", c) / s.ratio("memory-nometrics-throttled", "memory-nometrics-open", c)),
                    x(s.ratio("memory-throttled", "memory-nometrics-throttled", c))));
        }
    }

    /** Throttle's {@code throttlePath} beside a peer's {@code peerPath}, in every row of {@code store} that holds the peer. */
    private static void peer(Context ctx, Results r, String title, String peer, String store, String throttlePath, String peerPath) {
        ctx.title(title);
        ctx.line("| identities | connections | unthrottled req/s | Throttle req/s | " + peer + " req/s | Throttle ÷ " + peer
                + " | Throttle ÷ unthrottled | " + peer + " ÷ unthrottled | p99 added: Throttle | p99 added: " + peer + " |");
        ctx.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        Stats s = r.stats();
        for (Row row : HttpSection.rows(store)) {
            int c = row.connections();
            String open = row.unthrottled();
            String thr = row.figure(throttlePath);
            String other = row.figure(peerPath);
            line(ctx, r, row.key(), row.paths().contains(peerPath), f("| %s | %d |", row.identity().label, c), 8,
                    () -> f(" %s | %s | %s | %s | %s | %s | %+.2f ms | %+.2f ms |", rate(s.median(open, c)), rate(s.median(thr, c)),
                            rate(s.median(other, c)), x(s.ratio(thr, other, c)), x(s.ratio(thr, open, c)), x(s.ratio(other, open, c)),
                            s.difference(thr + "-p99", open + "-p99", c), s.difference(other + "-p99", open + "-p99", c)));
        }
    }

    private static void flood(Context ctx, Results r) {
        ctx.title("Flood: one API key far over its limit (`/flood`, 10 per hour), 64 connections, every answer a 429");
        ctx.line("| store | denied req/s | Redis script runs per denied request |");
        ctx.line("|---|---:|---:|");
        Stats s = r.stats();
        for (String store : HttpSection.MAIN) {
            String key = HttpSection.floodKey(store);
            if (r.failed().containsKey(key) || !Double.isNaN(s.median(store + "-flood", 64))) {
                ctx.line(r.failed().containsKey(key) ? f("| %s | not measured: %s | |", store, r.failed().get(key))
                        : f("| %s | %s | %.3f |", store, rate(s.median(store + "-flood", 64)), s.median(store + "-flood-scripts", 64)));
            }
        }
        ctx.line(f("| Redis ÷ memory | %s | |", x(s.ratio("redis-flood", "memory-flood", 64))));
    }

    private static void cpu(Context ctx, Results r) {
        ctx.title("Where the CPU goes at " + HttpSection.CPU_AT + " connections: per request, the app's threads by family (`/proc/<pid>/task`) and Redis (`INFO cpu`)");
        StringBuilder head = new StringBuilder("| store | endpoint | req/s | context switches (voluntary + involuntary) |");
        StringBuilder rule = new StringBuilder("|---|---|---:|---:|");
        for (String family : ThreadCpu.FAMILIES) {
            head.append(' ').append(family).append(" |");
            rule.append("---:|");
        }
        ctx.line(head + " Redis | all |");
        ctx.line(rule + "---:|---:|");
        Stats s = r.stats();
        int c = HttpSection.CPU_AT;
        for (String store : HttpSection.MAIN) {
            for (Row row : HttpSection.rows(store)) {
                if (row.connections() != c || !r.load().containsKey(row.key())) {
                    continue;
                }
                for (String path : row.paths()) {
                    String name = row.figure(path);
                    StringBuilder line = new StringBuilder(f("| %s | %s | %s | %.2f + %.2f |", store, path + row.identity().suffix,
                            rate(s.median(name, c)), s.median(name + "/voluntary", c), s.median(name + "/involuntary", c)));
                    double all = 0;
                    for (String family : ThreadCpu.FAMILIES) {
                        double v = s.median(name + "/" + family, c);
                        all += v;
                        line.append(f(" %.1f µs |", v));
                    }
                    double redis = s.median(name + "/Redis", c);
                    ctx.line(line + f(" %.1f µs | %.1f µs |", redis, all + redis));
                }
            }
        }
    }
}
