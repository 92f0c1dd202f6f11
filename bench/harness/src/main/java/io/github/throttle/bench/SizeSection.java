package io.github.throttle.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.github.throttle.bench.Context.identity;
import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;

/** Redis memory per identity ({@code MEMORY USAGE}) of Throttle's store and of the 2014 article's script, the README example's limits. */
final class SizeSection implements Section {

    @Override
    public String name() {
        return "size";
    }

    @Override
    public void run(Context ctx) throws Exception {
        log("Size rows");
        RedisServer redis = ctx.redis;
        redis.admin.flushall();
        RedisAdapter store = new RedisAdapter(redis.uri(), Duration.ofSeconds(2), true);
        String seedSha = redis.admin.scriptLoad(Context.resource(ScriptCommands.ARTICLE));
        RedisClient client = RedisClient.create(redis.uri());
        StatefulRedisConnection<String, String> conn = client.connect();
        RedisAsyncCommands<String, String> async = conn.async();
        int n = 200;
        long now = System.currentTimeMillis();
        // one call; then a busy hour: 4 calls in every minute of the last hour (240 = the hourly limit)
        long[][] plans = {{now}, new long[240]};
        long start = now - 3_599_000;
        for (int m = 0; m < 60; m++) {
            for (int j = 0; j < 4; j++) {
                plans[1][m * 4 + j] = start + m * 60_000L + j * 15_000L;
            }
        }
        String[] names = {"one call", "a busy hour: 240 calls, 4 in each of the last 60 minutes"};
        ctx.title("Redis memory per identity, limits 10/s + 120/min + 240/h by 1 min (`MEMORY USAGE`, mean over " + n + " identities)");
        ctx.line("| identity's history | Throttle | 2014 article's script |");
        ctx.line("|---|---:|---:|");
        for (int p = 0; p < plans.length; p++) {
            Engine.Bucket bucket = store.bucket("size" + p, Windows.EXAMPLE);
            for (long at : plans[p]) {
                Load.drain(16, n, i -> bucket.decide(identity(i), at));
                List<CompletableFuture<Long>> seedCalls = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    seedCalls.add(async.<Long>evalsha(seedSha, ScriptOutputType.INTEGER, new String[] {"seed:size" + p + ":" + identity(i)},
                            Windows.SEED_EXAMPLE, f("%.3f", at / 1000.0), "1").toCompletableFuture());
                }
                for (CompletableFuture<Long> call : seedCalls) {
                    if (call.get() != 0L) {
                        throw new IllegalStateException("the article's script denied a call of the size workload");
                    }
                }
            }
            long thr = 0;
            long seedBytes = 0;
            for (int i = 0; i < n; i++) {
                thr += redis.admin.memoryUsage(bucket.key(identity(i)));
                seedBytes += redis.admin.memoryUsage("seed:size" + p + ":" + identity(i));
            }
            String enc = redis.admin.objectEncoding(bucket.key(identity(0)));
            long fields = redis.admin.hlen(bucket.key(identity(0)));
            long seedFields = redis.admin.hlen("seed:size" + p + ":" + identity(0));
            ctx.line(f("| %s | %d bytes (%d fields, %s) | %d bytes (%d fields) |", names[p], thr / n, fields, enc, seedBytes / n, seedFields));
        }
        conn.close();
        client.shutdown();
        store.close();
    }
}
