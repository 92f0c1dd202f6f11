package io.github.throttle.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/**
 * Leased quota of a hot key ({@code throttle.leases}): three instances of the HTTP app on one redis-server, all
 * deciding one key, {@code /hot} (8,000 calls per fixed window of 10 s for everyone), with leases off and auto side
 * by side. A figure is one window: wrk on the three instances at once, 64 connections in all (22, 21, 21), from
 * 50 ms after the window starts for 9 s, after a second of the same load ending about 0.2 s before the window, so
 * that each instance decided the key at far more than {@code throttle.leases.min-rate} (200 calls/s) just before it
 * (a pause of two lease periods would leave the key cold).
 * Rounds interleave off and auto (the other order in odd rounds) and measure Redis idle for 9 s once: requests/s,
 * calls allowed (200) and denied (429), the share of the limit allowed, script runs and Redis CPU (less its idle CPU)
 * per allowed call, and the ratio of auto to off. The apps run with {@code throttle.on-store-failure=deny}: a call
 * the store did not answer in time is a 503, counted apart, never a call allowed without being counted.
 */
final class LeasesSection implements Section {

    static final List<String> APPS = List.of("redis-leases-off", "redis-leases-auto");
    static final int INSTANCES = 3;
    /** Connections in all, split among the instances. */
    static final int CONNECTIONS = 64;
    /** {@code /hot}'s limit and window: fixed windows start at multiples of 10 s since the epoch, by Redis's clock. */
    static final long LIMIT = 8_000;
    static final long WINDOW_MILLIS = 10_000;
    /** The load starts this long after the window does, and lasts {@link #SECONDS}: it all falls in the window. */
    static final long START_MILLIS = 50;
    static final int SECONDS = 9;
    /** The load that makes the key hot starts this long before the window, and lasts a second (wrk's least). */
    static final long HOT_MILLIS = 1_250;
    /** What {@code hot-statuses.lua} prints. */
    private static final Pattern FAILURES = Pattern.compile("Store failures \\(503\\): (\\d+)");

    @Override
    public String name() {
        return "leases";
    }

    @Override
    public void run(Context ctx) throws Exception {
        log("Leases");
        String jar = System.getenv().getOrDefault("BENCH_HTTP_APP", "../../http-app/target/quarkus-app/quarkus-run.jar");
        Path script = Files.createTempFile("throttle-bench-", ".lua");
        Files.writeString(script, Context.resource("/bench/hot-statuses.lua"));
        Stats s = new Stats();
        String load;
        List<HttpApp> apps = new ArrayList<>();
        try {
            List<List<String>> urls = new ArrayList<>();
            for (String name : APPS) {
                List<String> each = new ArrayList<>();
                for (int i = 0; i < INSTANCES; i++) {
                    HttpApp app = new HttpApp(jar, name, ctx.redis.uri());
                    apps.add(app);
                    each.add(app.base + "hot");
                }
                urls.add(each);
            }
            for (List<String> each : urls) {
                Processes.wrk(each, CONNECTIONS, Math.max(3, ctx.warm), script.toString());
            }
            load = Bench.loadAverage().split(" ")[0];
            for (int round = 0; round < ctx.rounds; round++) {
                double idle = ctx.redis.cpuSeconds();
                Thread.sleep(SECONDS * 1000L);
                idle = ctx.redis.cpuSeconds() - idle;
                for (int i = 0; i < APPS.size(); i++) {
                    int a = round % 2 == 0 ? i : APPS.size() - 1 - i;
                    window(ctx, s, APPS.get(a), urls.get(a), idle, script.toString());
                }
            }
        } finally {
            apps.forEach(HttpApp::close);
        }
        ctx.title("Leases: three instances of the HTTP app on one Redis, one key, `/hot`: 8,000 per fixed window of 10 s (Redis "
                + ctx.redis.version + ")");
        ctx.line(f("A figure is one window: wrk on the three instances at once, %d connections in all, from %d ms after the window's start"
                + " for %d s, after a second of the same load before it; Redis CPU less its idle CPU over %d s.", CONNECTIONS,
                START_MILLIS, SECONDS, SECONDS));
        ctx.line("");
        ctx.line("| `throttle.leases` | requests/s | allowed | denied | store failed (503) | of the limit | script runs per allowed call"
                + " | Redis CPU µs per allowed call |");
        ctx.line("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (String app : APPS) {
            ctx.line(f("| %s | %s | %,.0f | %,.0f | %,.0f | %.1f %% | %.3f | %.1f |", app.substring("redis-leases-".length()),
                    rate(s.median(app, CONNECTIONS)), s.median(app + "-allowed", CONNECTIONS), s.median(app + "-denied", CONNECTIONS),
                    s.median(app + "-failed", CONNECTIONS), 100 * s.median(app + "-allowed", CONNECTIONS) / LIMIT,
                    s.median(app + "-scripts", CONNECTIONS), s.median(app + "-cpu", CONNECTIONS)));
        }
        String on = APPS.get(1);
        String off = APPS.get(0);
        ctx.line(f("| auto ÷ off | %s | %s | %s | %s | %s | %s | %s |", x(s.ratio(on, off, CONNECTIONS)),
                x(s.ratio(on + "-allowed", off + "-allowed", CONNECTIONS)), x(s.ratio(on + "-denied", off + "-denied", CONNECTIONS)),
                x(s.ratio(on + "-failed", off + "-failed", CONNECTIONS)), x(s.ratio(on + "-allowed", off + "-allowed", CONNECTIONS)),
                x(s.ratio(on + "-scripts", off + "-scripts", CONNECTIONS)), x(s.ratio(on + "-cpu", off + "-cpu", CONNECTIONS))));
        ctx.line("");
        ctx.line("Load average (1 min) at the start: " + load + "; at the end: " + Bench.loadAverage().split(" ")[0] + ".");
    }

    /** One figure: the load of one window on the instances of {@code app}, with Redis's script runs and CPU beyond {@code idleCpu}. */
    private static void window(Context ctx, Stats s, String app, List<String> urls, double idleCpu, String script) throws InterruptedException {
        long start = hotUntil(urls, script);
        sleepUntil(start + START_MILLIS);
        long runs = ctx.redis.scriptRuns();
        double cpu = ctx.redis.cpuSeconds();
        List<Processes.WrkResult> results = Processes.wrk(urls, CONNECTIONS, SECONDS, script);
        if (System.currentTimeMillis() >= start + WINDOW_MILLIS) {
            throw new IllegalStateException(app + ": the load ran past the end of its window");
        }
        cpu = ctx.redis.cpuSeconds() - cpu - idleCpu;
        runs = ctx.redis.scriptRuns() - runs;
        double rps = 0;
        long allowed = 0;
        long denied = 0;
        long failed = 0;
        List<String> each = new ArrayList<>();
        for (Processes.WrkResult r : results) {
            // the script made wrk fail on any status but 200, 429 and 503: the non-2xx answers are denials and failures
            if (r.requests() == 0 || r.errors() > r.non2xx()) {
                throw new IllegalStateException(app + ": " + (r.errors() - r.non2xx()) + " socket errors, " + r.requests() + " answers");
            }
            Matcher m = FAILURES.matcher(r.output());
            if (!m.find()) {
                throw new IllegalStateException("no count of 503 answers in wrk's output:\n" + r.output());
            }
            long unanswered = Long.parseLong(m.group(1));
            rps += r.requestsPerSecond();
            allowed += r.requests() - r.non2xx();
            denied += r.non2xx() - unanswered;
            failed += unanswered;
            each.add((r.requests() - r.non2xx()) + "/" + (r.non2xx() - unanswered) + "/" + unanswered);
        }
        s.add(app, CONNECTIONS, rps);
        s.add(app + "-allowed", CONNECTIONS, allowed);
        s.add(app + "-denied", CONNECTIONS, denied);
        s.add(app + "-failed", CONNECTIONS, failed);
        s.add(app + "-scripts", CONNECTIONS, (double) runs / allowed);
        s.add(app + "-cpu", CONNECTIONS, cpu * 1e6 / allowed);
        log(f("  %s: %s, allowed %d of %d (per instance allowed/denied/503: %s), %d script runs, %.3f s Redis CPU beyond idle", app,
                rate(rps), allowed, LIMIT, String.join(", ", each), runs, cpu));
    }

    /**
     * A second of load on {@code urls} that ends before the next window it leaves room for: the key is hot there when
     * that window starts, and these calls count in the window before. That window's start; the next one's if the load
     * ended late (a busy machine).
     */
    private static long hotUntil(List<String> urls, String script) throws InterruptedException {
        long start = ((System.currentTimeMillis() + HOT_MILLIS + 500) / WINDOW_MILLIS + 1) * WINDOW_MILLIS;
        for (int late = 0; ; late++) {
            sleepUntil(start - HOT_MILLIS);
            Processes.wrk(urls, CONNECTIONS, 1, script);
            if (System.currentTimeMillis() < start) {
                return start;
            }
            if (late == 2) {
                throw new IllegalStateException("the load before a window ran into the window three times: the machine is too busy");
            }
            start += WINDOW_MILLIS;
        }
    }

    private static void sleepUntil(long millis) throws InterruptedException {
        long d = millis - System.currentTimeMillis();
        if (d > 0) {
            Thread.sleep(d);
        }
    }
}
