package io.github.throttle.bench;

import static io.github.throttle.bench.Context.CALLERS;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/** The tables of {@link HttpSection}: figures are medians over rounds, ratios medians of per-round ratios. */
final class HttpTables {

    private HttpTables() {
    }

    static void print(Context ctx, Stats s) {
        stores(ctx, s);
        peer(ctx, s, "Throttle over Redis vs Bucket4j 8.19's Lettuce proxy at HTTP (the same three limits per API key, every call allowed)",
                "Bucket4j", "redis", new String[][] {{"10,000 random keys", "throttled", "bucket4j"}, {"one hot key", "throttled-hot", "bucket4j-hot"}});
        peer(ctx, s, "Throttle over Redis on the event loop: `@NonBlocking` endpoints, no worker thread (10,000 random keys)",
                "`/open-eventloop`", "redis", new String[][] {{"10,000 random keys", "throttled-eventloop", "open-eventloop"}});
        peer(ctx, s, "Throttle's memory store vs SmallRye Fault Tolerance `@RateLimit` at HTTP (one quota per method, `key = ThrottleKey.Everyone`, every call allowed)",
                "`@RateLimit`", "memory", new String[][] {{"one quota", "everyone", "ft"}});
        flood(ctx, s);
        cpu(ctx, s);
    }

    private static void stores(Context ctx, Stats s) {
        ctx.title("(5) HTTP: wrk against one Quarkus 3.33.2 app, `/open` vs the same endpoint throttled per API key (10,000 random keys, the three limits raised so every call is allowed); the app runs once per store");
        ctx.line("`/fields` is `/open` answering the same two `RateLimit` fields as constants: what the fields' bytes cost the server and wrk, without deciding anything. "
                + "`memory, no fields` is the memory store with `throttle.headers=none`: the decision without the fields. "
                + "Every row counts its calls in Micrometer (`throttle_calls_total`) but `memory, no metrics` (`throttle.metrics=none`). "
                + "`live limits`: 10,000 assignments (of keys no request sends) and every bucket and plan overridden with its own limits.");
        ctx.line("");
        ctx.line("| store | connections | unthrottled req/s | `/fields` req/s | throttled req/s | ratio | throttled / `/fields` | p99 unthrottled | p99 throttled | p99 added |");
        ctx.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String store : HttpSection.STORES) {
            for (int c : CALLERS) {
                if (Double.isNaN(s.median(store + "-open", c))) {
                    continue; // not run (BENCH_HTTP_STORES)
                }
                ctx.line(f("| %s | %d | %s | %s | %s | %s | %s | %.2f ms | %.2f ms | %+.2f ms |", store.replace("-nofields", ", no fields").replace("-nometrics", ", no metrics").replace("-live", ", live limits"), c,
                        rate(s.median(store + "-open", c)), rate(s.median(store + "-fields", c)), rate(s.median(store + "-throttled", c)),
                        x(s.ratio(store + "-throttled", store + "-open", c)), x(s.ratio(store + "-throttled", store + "-fields", c)),
                        s.median(store + "-open-p99", c), s.median(store + "-throttled-p99", c),
                        s.difference(store + "-throttled-p99", store + "-open-p99", c)));
            }
        }
        ctx.line("");
        ctx.line("What the metrics cost: each app's throttled rate over its own unthrottled rate, with metrics over without "
                + "(two app instances differ by more than the metrics do, so the raw ratio is shown too).");
        ctx.line("");
        ctx.line("| connections | (throttled / open) with metrics ÷ without | throttled req/s with metrics / without |");
        ctx.line("|---:|---:|---:|");
        for (int c : CALLERS) {
            if (Double.isNaN(s.median("memory-nometrics-open", c))) {
                continue;
            }
            ctx.line(f("| %d | %s | %s |", c,
                    x(s.ratio("memory-throttled", "memory-open", c) / s.ratio("memory-nometrics-throttled", "memory-nometrics-open", c)),
                    x(s.ratio("memory-throttled", "memory-nometrics-throttled", c))));
        }
    }

    /** Throttle beside a peer in the same app: each workload row is {label, Throttle's figure, the peer's}. */
    private static void peer(Context ctx, Stats s, String title, String peer, String store, String[][] workloads) {
        ctx.title(title);
        ctx.line("| workload | connections | unthrottled req/s | Throttle req/s | " + peer + " req/s | Throttle ÷ " + peer
                + " | Throttle ÷ unthrottled | " + peer + " ÷ unthrottled | p99 added: Throttle | p99 added: " + peer + " |");
        ctx.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        String open = store + "-open";
        for (String[] w : workloads) {
            String thr = store + "-" + w[1];
            String other = store + "-" + w[2];
            for (int c : CALLERS) {
                if (Double.isNaN(s.median(thr, c))) {
                    continue;
                }
                ctx.line(f("| %s | %d | %s | %s | %s | %s | %s | %s | %+.2f ms | %+.2f ms |", w[0], c, rate(s.median(open, c)),
                        rate(s.median(thr, c)), rate(s.median(other, c)), x(s.ratio(thr, other, c)), x(s.ratio(thr, open, c)),
                        x(s.ratio(other, open, c)), s.difference(thr + "-p99", open + "-p99", c), s.difference(other + "-p99", open + "-p99", c)));
            }
        }
    }

    private static void flood(Context ctx, Stats s) {
        ctx.title("Flood: one API key far over its limit (`/flood`, 10 per hour), 64 connections, every answer a 429");
        ctx.line("| store | denied req/s | Redis script runs per denied request |");
        ctx.line("|---|---:|---:|");
        for (String store : new String[] {"memory", "redis"}) {
            if (Double.isNaN(s.median(store + "-flood", 64))) {
                continue;
            }
            ctx.line(f("| %s | %s | %.3f |", store, rate(s.median(store + "-flood", 64)), s.median(store + "-flood-scripts", 64)));
        }
        ctx.line(f("| Redis ÷ memory | %s | |", x(s.ratio("redis-flood", "memory-flood", 64))));
    }

    private static void cpu(Context ctx, Stats s) {
        ctx.title("Where the CPU goes at 64 connections: per request, the app's threads by family (`/proc/<pid>/task`) and Redis (`INFO cpu`)");
        StringBuilder head = new StringBuilder("| store | endpoint | req/s | context switches (voluntary + involuntary) |");
        StringBuilder rule = new StringBuilder("|---|---|---:|---:|");
        for (String family : ThreadCpu.FAMILIES) {
            head.append(' ').append(family).append(" |");
            rule.append("---:|");
        }
        ctx.line(head + " Redis | all |");
        ctx.line(rule + "---:|---:|");
        String[][] rows = {{"memory", "open"}, {"memory", "throttled"}, {"memory", "everyone"}, {"memory", "ft"}, {"redis", "open"},
                {"redis", "throttled"}, {"redis", "throttled-hot"}, {"redis", "open-eventloop"}, {"redis", "throttled-eventloop"},
                {"redis", "bucket4j"}, {"redis", "bucket4j-hot"}};
        for (String[] row : rows) {
            String name = row[0] + "-" + row[1];
            if (Double.isNaN(s.median(name, 64))) {
                continue;
            }
            StringBuilder line = new StringBuilder(f("| %s | %s | %s | %.2f + %.2f |", row[0], row[1], rate(s.median(name, 64)),
                    s.median(name + "/voluntary", 64), s.median(name + "/involuntary", 64)));
            double all = 0;
            for (String family : ThreadCpu.FAMILIES) {
                double v = s.median(name + "/" + family, 64);
                all += v;
                line.append(f(" %.1f µs |", v));
            }
            double redis = s.median(name + "/Redis", 64);
            ctx.line(line + f(" %.1f µs | %.1f µs |", redis, all + redis));
        }
    }
}
