package io.github.throttle.bench;

import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;

/**
 * The in-process path of one decision, stage by stage (one thread, one hot identity, the memory store):
 * each loop adds one stage to the previous one, so the differences are what each stage costs.
 */
final class PathSection implements Section {

    static final String[] STAGES = {"key", "call", "store", "decision", "bucket4j", "probe"};

    @Override
    public String name() {
        return "path";
    }

    @Override
    public void run(Context ctx) {
        log("Path rows");
        MemoryAdapter store = new MemoryAdapter();
        Engine.Bucket bucket = store.bucket("path", Windows.HIGH);
        Bucket4j.Local buckets = new Bucket4j.Local(Windows.HIGH);
        Stats s = new Stats();
        int n = 2_000_000;
        for (int round = -1; round < ctx.rounds; round++) {
            long sink = 0;
            long[] t = new long[STAGES.length + 1];
            t[0] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += bucket.key("key:hot").length();
            }
            t[1] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += bucket.callSize("key:hot");
            }
            t[2] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += store.decideInStore(bucket, "key:hot");
            }
            t[3] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += bucket.decide("key:hot", -1).toCompletableFuture().join().quotas().size();
            }
            t[4] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += buckets.get(bucket.key("key:hot")).tryConsume(1) ? 1 : 0;
            }
            t[5] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += buckets.get(bucket.key("key:hot")).tryConsumeAndReturnRemaining(1).getRemainingTokens();
            }
            t[6] = System.nanoTime();
            if (round >= 0) {
                for (int j = 0; j < STAGES.length; j++) {
                    s.add(STAGES[j], 1, (t[j + 1] - t[j]) / (double) n);
                }
                log(f("  round %d: key %.0f ns, + store call %.0f ns, + memory store %.0f ns, + decision %.0f ns; Bucket4j %.0f ns (%d)",
                        round + 1, s.median("key", 1), s.median("call", 1), s.median("store", 1), s.median("decision", 1),
                        s.median("bucket4j", 1), sink % 10));
            }
        }
        store.close();
        ctx.title("In-process path of one decision (one thread, one hot identity, three limits; ns per call, each row adds one stage)");
        ctx.line("| stage | ns per call | the stage alone |");
        ctx.line("|---|---:|---:|");
        String[] names = {"the key (`KeyCodec.key`)", "+ the `StoreCall`", "+ `MemoryStore.decideNow`", "+ `Decider` and the `Decision` (the whole path)"};
        for (int j = 0; j < 4; j++) {
            double v = s.median(STAGES[j], 1);
            ctx.line(f("| %s | %.0f | %.0f |", names[j], v, j == 0 ? v : v - s.median(STAGES[j - 1], 1)));
        }
        ctx.line(f("| Bucket4j local: the key + `tryConsume(1)` | %.0f | |", s.median("bucket4j", 1)));
        ctx.line(f("| Bucket4j local: the key + `tryConsumeAndReturnRemaining(1)` | %.0f | |", s.median("probe", 1)));
    }
}
