package io.github.throttle.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.github.throttle.bench.Context.CALLERS;
import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/**
 * wrk against the Quarkus app of {@code bench/http-app} ({@code BENCH_HTTP_APP}), once per store:
 * {@code /open}, {@code /fields} and {@code /throttled} (10,000 random API keys); requests per second and p99.
 */
final class HttpSection implements Section {

    /** "memory-nofields": the memory store with throttle.headers=none, so that the decision's own cost shows apart from that of the fields' bytes. */
    static final String[] STORES = {"memory", "memory-nometrics", "memory-nofields", "redis"};

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
        Path script = Files.createTempFile("throttle-bench-", ".lua");
        Files.writeString(script, """
                -- one of 10,000 API keys per request: each is an identity of the throttled endpoint
                request = function()
                  return wrk.format("GET", nil, { ["X-API-Key"] = "k" .. math.random(1, 10000) })
                end
                """);
        Stats s = new Stats();
        for (String store : STORES) {
            try (HttpApp app = new HttpApp(jar, store, ctx.redis.uri())) {
                for (String ep : new String[] {"open", "fields", "throttled"}) {
                    Processes.wrk(app.base + ep, 64, 3, script.toString());
                }
                for (int round = 0; round < ctx.rounds; round++) {
                    for (int c : CALLERS) {
                        for (String ep : round % 2 == 0 ? new String[] {"open", "fields", "throttled"} : new String[] {"throttled", "fields", "open"}) {
                            Processes.WrkResult r = Processes.wrk(app.base + ep, c, Math.max(2, ctx.seconds), script.toString());
                            if (r.errors() > 0) {
                                throw new IllegalStateException(ep + " (" + store + "): " + r.errors() + " errors or non-2xx responses");
                            }
                            s.add(store + "-" + ep, c, r.requestsPerSecond());
                            s.add(store + "-" + ep + "-p99", c, r.p99Millis());
                        }
                        log(f("  %s round %d, %d connections: open %s p99 %.2f ms, throttled %s p99 %.2f ms", store, round + 1, c,
                                rate(s.last(store + "-open", c)), s.last(store + "-open-p99", c),
                                rate(s.last(store + "-throttled", c)), s.last(store + "-throttled-p99", c)));
                    }
                }
            }
        }
        ctx.title("(5) HTTP: wrk against one Quarkus 3.33.2 app, `/open` vs the same endpoint throttled per API key (10,000 random keys, the three limits raised so every call is allowed); the app runs once per store");
        ctx.line("`/fields` is `/open` answering the same two `RateLimit` fields as constants: what the fields' bytes cost the server and wrk, without deciding anything. "
                + "`memory, no fields` is the memory store with `throttle.headers=none`: the decision without the fields. "
                + "Every row counts its calls in Micrometer (`throttle_calls_total`) but `memory, no metrics` (`throttle.metrics=none`).");
        ctx.line("");
        ctx.line("| store | connections | unthrottled req/s | `/fields` req/s | throttled req/s | ratio | throttled / `/fields` | p99 unthrottled | p99 throttled | p99 added |");
        ctx.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (String store : STORES) {
            for (int c : CALLERS) {
                ctx.line(f("| %s | %d | %s | %s | %s | %s | %s | %.2f ms | %.2f ms | %+.2f ms |", store.replace("-nofields", ", no fields").replace("-nometrics", ", no metrics"), c,
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
            ctx.line(f("| %d | %s | %s |", c,
                    x(s.ratio("memory-throttled", "memory-open", c) / s.ratio("memory-nometrics-throttled", "memory-nometrics-open", c)),
                    x(s.ratio("memory-throttled", "memory-nometrics-throttled", c))));
        }
    }
}
