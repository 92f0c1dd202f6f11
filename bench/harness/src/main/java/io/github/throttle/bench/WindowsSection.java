package io.github.throttle.bench;

import java.time.Duration;

import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/**
 * A 1 h window by 1 s (3,600 sub-buckets) against a fixed 1 h window, through Throttle's Redis store with
 * client time, 64 callers: steady calls on random identities, and one call each after idle gaps.
 */
final class WindowsSection implements Section {

    @Override
    public String name() {
        return "windows";
    }

    @Override
    public void run(Context ctx) throws Exception {
        log("Window rows");
        RedisServer redis = ctx.redis;
        RedisAdapter store = new RedisAdapter(redis.uri(), Duration.ofSeconds(2), true);
        int c = 64;
        int n = 20_000;
        Stats s = new Stats();
        for (int round = -1; round < ctx.rounds; round++) {
            for (String which : new String[] {"sliding", "fixed"}) {
                Windows.Window[] l = which.equals("sliding") ? Windows.SLIDING_HOUR : Windows.FIXED_HOUR;
                Engine.Bucket bucket = store.bucket("w" + which + (round + 1), l);
                // steady: random identities, the real clock
                double steady = Load.async(c, ctx.warm, ctx.seconds,
                        () -> bucket.decide(ctx.anyId(), System.currentTimeMillis()), Load::allowed);
                Engine.Bucket gaps = store.bucket("g" + which + (round + 1), l);
                long later = IdleGaps.setUp(redis, gaps, c, n);
                double gap = Load.drain(c, n, i -> gaps.decide(Context.identity(i), later));
                if (round >= 0) {
                    s.add(which + "-steady", c, steady);
                    s.add(which + "-gap", c, gap);
                }
                log(f("  round %d: %s steady %s, after gaps %s", round + 1, which, rate(steady), rate(gap)));
            }
            redis.admin.flushall();
        }
        store.close();
        ctx.title("1 h window by 1 s (3,600 sub-buckets) vs a fixed 1 h window (Throttle Redis store, 64 callers, client time)");
        ctx.line("| workload | 1 h by 1 s | fixed 1 h | ratio |");
        ctx.line("|---|---:|---:|---:|");
        ctx.line("| steady: 10,000 random identities, calls every second | " + rate(s.median("sliding-steady", c)) + " | "
                + rate(s.median("fixed-steady", c)) + " | " + x(s.ratio("sliding-steady", "fixed-steady", c)) + " |");
        ctx.line("| after idle gaps: 20,000 identities, weight in 5 sub-buckets 2.5 min apart, then one call each 65.5 min later (3 sub-buckets leave; keys aged by the 55.5 min since the last weight, as Redis would hold them then) | "
                + rate(s.median("sliding-gap", c)) + " | " + rate(s.median("fixed-gap", c)) + " | " + x(s.ratio("sliding-gap", "fixed-gap", c)) + " |");
    }
}
