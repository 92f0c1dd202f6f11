package io.github.throttle.bench;

import static io.github.throttle.bench.Context.CALLERS;
import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/** In-process decisions per second: Throttle's memory store through the decider vs Bucket4j local buckets; 1, 16 and 64 threads. */
final class MemorySection implements Section {

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public void run(Context ctx) {
        log("Memory rows");
        MemoryAdapter store = new MemoryAdapter();
        Engine.Bucket bucket = store.bucket("mem", Windows.HIGH);
        Bucket4j.Local buckets = new Bucket4j.Local(Windows.HIGH);
        Stats s = new Stats();
        double warm = ctx.warm;
        double seconds = ctx.seconds;
        for (int round = 0; round < ctx.rounds; round++) {
            for (int c : CALLERS) {
                s.add("thr-rand", c, Load.threads(c, warm, seconds,
                        () -> bucket.decide(ctx.anyId()).toCompletableFuture().join().allowed()));
                s.add("b4j-rand", c, Load.threads(c, warm, seconds, () -> buckets.get(bucket.key(ctx.anyId())).tryConsume(1)));
                s.add("thr-hot", c, Load.threads(c, warm, seconds,
                        () -> bucket.decide("key:hot").toCompletableFuture().join().allowed()));
                s.add("b4j-hot", c, Load.threads(c, warm, seconds, () -> buckets.get(bucket.key("key:hot")).tryConsume(1)));
                log(f("  round %d, %d callers: Throttle %s, Bucket4j %s (random)", round + 1, c,
                        rate(s.all("thr-rand", c).get(round)), rate(s.all("b4j-rand", c).get(round))));
            }
        }
        store.close();
        ctx.title("In-process: Throttle memory store (through `Decider`) vs Bucket4j 8.19 local buckets (one per identity in a `ConcurrentHashMap`); decisions per second, c threads");
        ctx.line("| row | workload | 1 thread | 16 threads | 64 threads |");
        ctx.line("|---|---|---:|---:|---:|");
        for (String w : new String[] {"rand", "hot"}) {
            String wl = w.equals("rand") ? "10,000 random identities" : "one hot identity";
            ctx.line("| (4) Throttle memory store | " + wl + " | " + rate(s.median("thr-" + w, 1)) + " | " + rate(s.median("thr-" + w, 16)) + " | " + rate(s.median("thr-" + w, 64)) + " |");
            ctx.line("| (4) Bucket4j local | " + wl + " | " + rate(s.median("b4j-" + w, 1)) + " | " + rate(s.median("b4j-" + w, 16)) + " | " + rate(s.median("b4j-" + w, 64)) + " |");
            ctx.line("| Throttle / Bucket4j | " + wl + " | " + x(s.ratio("thr-" + w, "b4j-" + w, 1)) + " | " + x(s.ratio("thr-" + w, "b4j-" + w, 16)) + " | " + x(s.ratio("thr-" + w, "b4j-" + w, 64)) + " |");
        }
    }
}
