package io.github.throttle.bench;

import io.github.bucket4j.BucketConfiguration;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static io.github.throttle.bench.Context.CALLERS;
import static io.github.throttle.bench.Context.IDENTITIES;
import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/**
 * Decisions per second against Redis: the raw EVALSHA of Throttle's script (redis-benchmark), Throttle's
 * Redis store through the decider (also with each call's weight given back, as a successful call of a target
 * that counts only failures), and Bucket4j's Lettuce proxy, async and sync; 1, 16 and 64 callers, on
 * random identities and on one hot identity.
 */
final class RedisSection implements Section {

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public void run(Context ctx) {
        log("Redis rows");
        ctx.redis.admin.scriptLoad(RedisAdapter.SCRIPT);
        List<String> rawRand = RedisAdapter.evalsha(Engine.key("bench", "key:__rand_int__"), Windows.HIGH);
        List<String> rawHot = RedisAdapter.evalsha(Engine.key("bench", "key:hot"), Windows.HIGH);

        RedisAdapter store = new RedisAdapter(ctx.redis.uri(), Duration.ofSeconds(2), false);
        Engine.Bucket bucket = store.bucket("bench", Windows.HIGH);

        Bucket4j.Lettuce b4j = new Bucket4j.Lettuce(ctx.redis.uri());
        BucketConfiguration conf = Bucket4j.configuration(Windows.HIGH);
        byte[][] b4jKeys = new byte[IDENTITIES][];
        for (int i = 0; i < IDENTITIES; i++) {
            b4jKeys[i] = ("b4j:bench:" + ctx.ids[i]).getBytes(StandardCharsets.UTF_8);
        }
        byte[] b4jHot = "b4j:bench:key:hot".getBytes(StandardCharsets.UTF_8);

        Stats s = new Stats();
        double warm = ctx.warm;
        double seconds = ctx.seconds;
        for (int round = 0; round < ctx.rounds; round++) {
            for (int c : CALLERS) {
                s.add("raw-rand", c, ctx.redisBenchmark("raw-rand", c, IDENTITIES, rawRand));
                s.add("thr-rand", c, Load.async(c, warm, seconds, () -> bucket.decide(ctx.anyId()), Load::allowed));
                s.add("thr-back-rand", c, Load.async(c, warm, seconds, () -> bucket.decideAndGiveBack(ctx.anyId()), Load::allowed));
                s.add("b4j-async-rand", c, Load.async(c, warm, seconds,
                        () -> b4j.proxy.asAsync().builder().build(b4jKeys[Context.anyIndex()], conf).tryConsume(1),
                        Boolean.TRUE::equals));
                s.add("b4j-sync-rand", c, Load.threads(c, warm, seconds,
                        () -> b4j.proxy.builder().build(b4jKeys[Context.anyIndex()], conf).tryConsume(1)));
                s.add("raw-hot", c, ctx.redisBenchmark("raw-hot", c, 0, rawHot));
                s.add("thr-hot", c, Load.async(c, warm, seconds, () -> bucket.decide("key:hot"), Load::allowed));
                s.add("b4j-async-hot", c, Load.async(c, warm, seconds,
                        () -> b4j.proxy.asAsync().builder().build(b4jHot, conf).tryConsume(1), Boolean.TRUE::equals));
                s.add("b4j-sync-hot", c, Load.threads(c, warm, seconds,
                        () -> b4j.proxy.builder().build(b4jHot, conf).tryConsume(1)));
                log(f("  round %d, %d callers: raw %s, Throttle %s, Bucket4j async %s (random identities)", round + 1, c,
                        rate(s.all("raw-rand", c).get(round)), rate(s.all("thr-rand", c).get(round)), rate(s.all("b4j-async-rand", c).get(round))));
            }
        }
        store.close();
        b4j.close();

        ctx.title("Redis: decisions per second (three limits 1 s + 1 min + 1 h by 1 min, every call allowed; one Lettuce connection per library)");
        ctx.line("| row | workload | 1 caller | 16 callers | 64 callers |");
        ctx.line("|---|---|---:|---:|---:|");
        String[][] rows = {
                {"(1) raw EVALSHA of Throttle's script (redis-benchmark, c connections)", "raw"},
                {"(2) Throttle Redis store, async API", "thr"},
                {"(3) Bucket4j 8.19 Lettuce proxy, async", "b4j-async"},
                {"(3) Bucket4j 8.19 Lettuce proxy, sync (c threads)", "b4j-sync"}};
        for (String w : new String[] {"rand", "hot"}) {
            for (String[] r : rows) {
                String n = r[1] + "-" + w;
                ctx.line("| " + r[0] + " | " + (w.equals("rand") ? "10,000 random identities" : "one hot identity")
                        + " | " + rate(s.median(n, 1)) + " | " + rate(s.median(n, 16)) + " | " + rate(s.median(n, 64)) + " |");
            }
            ratioRow(ctx, s, "Throttle / raw EVALSHA", w, "thr-" + w, "raw-" + w);
            ratioRow(ctx, s, "Throttle / Bucket4j async", w, "thr-" + w, "b4j-async-" + w);
            ratioRow(ctx, s, "Throttle / Bucket4j sync", w, "thr-" + w, "b4j-sync-" + w);
        }
        ctx.line("| (2b) Throttle Redis store, each call's weight given back (a successful call with skipSuccessful) | "
                + "10,000 random identities | " + rate(s.median("thr-back-rand", 1)) + " | " + rate(s.median("thr-back-rand", 16))
                + " | " + rate(s.median("thr-back-rand", 64)) + " |");
        ratioRow(ctx, s, "given back / not given back (the cost of the second store call)", "rand", "thr-back-rand", "thr-rand");
    }

    private static void ratioRow(Context ctx, Stats s, String row, String workload, String a, String b) {
        ctx.line("| " + row + " | " + workload + " | " + x(s.ratio(a, b, 1)) + " | " + x(s.ratio(a, b, 16)) + " | " + x(s.ratio(a, b, 64)) + " |");
    }
}
