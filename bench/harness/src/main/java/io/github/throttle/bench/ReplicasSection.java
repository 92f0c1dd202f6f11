package io.github.throttle.bench;

import java.nio.file.Path;
import java.util.List;

import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/**
 * What waiting for a replica costs ({@code throttle.redis.replica-acks}): the HTTP app over a primary with one
 * replica on loopback, with {@code replica-acks} 0 and 1 side by side, wrk on {@code /throttled} with 10,000 random
 * API keys at 16 and 64 connections. Rounds interleave the two apps (the other order in odd rounds): requests/s, p99,
 * and the ratio of 1 to 0, with the {@code WAIT}s Redis ran per request.
 */
final class ReplicasSection implements Section {

    static final int[] CONNECTIONS = {16, 64};
    static final List<String> APPS = List.of("redis-acks0", "redis-acks1");

    @Override
    public String name() {
        return "replicas";
    }

    @Override
    public void run(Context ctx) throws Exception {
        log("Replica acknowledgements");
        String jar = System.getenv().getOrDefault("BENCH_HTTP_APP", "../../http-app/target/quarkus-app/quarkus-run.jar");
        Path script = HttpSection.script("-- random identities", "\"k\" .. math.random(1, 10000)");
        Stats s = new Stats();
        String load;
        try (RedisServer replica = new RedisServer(List.of(), List.of("--replicaof", "127.0.0.1", Integer.toString(ctx.redis.port)))) {
            long until = System.nanoTime() + 60_000_000_000L;
            while (!"up".equals(replica.info("replication").get("master_link_status"))) {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException("the replica did not sync within 60 s");
                }
                Thread.sleep(50);
            }
            try (HttpApp zero = new HttpApp(jar, APPS.get(0), ctx.redis.uri()); HttpApp one = new HttpApp(jar, APPS.get(1), ctx.redis.uri())) {
                List<HttpApp> apps = List.of(zero, one);
                for (HttpApp app : apps) {
                    Processes.wrk(app.base + "throttled", 64, Math.max(3, ctx.warm), script.toString());
                }
                load = Bench.loadAverage().split(" ")[0];
                for (int round = 0; round < ctx.rounds; round++) {
                    for (int c : CONNECTIONS) {
                        for (int i = 0; i < apps.size(); i++) {
                            int a = round % 2 == 0 ? i : apps.size() - 1 - i;
                            long waits = ctx.redis.commandCalls().getOrDefault("wait", 0L);
                            Processes.WrkResult r = Processes.wrk(apps.get(a).base + "throttled", c, Math.max(2, ctx.seconds), script.toString());
                            if (r.errors() > 0 || r.requests() == 0) {
                                throw new IllegalStateException(APPS.get(a) + ": " + r.errors() + " socket errors or non-2xx answers");
                            }
                            s.add(APPS.get(a), c, r.requestsPerSecond());
                            s.add(APPS.get(a) + "-p99", c, r.p99Millis());
                            s.add(APPS.get(a) + "-waits", c, (double) (ctx.redis.commandCalls().getOrDefault("wait", 0L) - waits) / r.requests());
                        }
                    }
                }
            }
        }
        ctx.title("Replica acknowledgements: one primary and one replica on loopback, /throttled, 10,000 random keys (Redis " + ctx.redis.version + ")");
        ctx.line("| connections | `replica-acks=0` req/s | p99 ms | `replica-acks=1` req/s | p99 ms | `WAIT`s per request | 1 ÷ 0 |");
        ctx.line("|---:|---:|---:|---:|---:|---:|---:|");
        for (int c : CONNECTIONS) {
            ctx.line(f("| %d | %s | %.2f | %s | %.2f | %.3f | %s |", c, rate(s.median(APPS.get(0), c)), s.median(APPS.get(0) + "-p99", c),
                    rate(s.median(APPS.get(1), c)), s.median(APPS.get(1) + "-p99", c), s.median(APPS.get(1) + "-waits", c),
                    x(s.ratio(APPS.get(1), APPS.get(0), c))));
        }
        ctx.line("");
        ctx.line("Load average (1 min) at the start: " + load + "; at the end: " + Bench.loadAverage().split(" ")[0] + ".");
    }
}
