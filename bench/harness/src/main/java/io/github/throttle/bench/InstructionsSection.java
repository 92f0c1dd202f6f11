package io.github.throttle.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;

/**
 * The scripts of {@link ScriptSection} in a redis-server run under valgrind's callgrind: instructions that
 * Redis executes per call (user space: the script, the commands it runs, request parsing, the reply),
 * counted rather than timed, so the same on a busy machine. 1,000 identities are called once, then
 * {@code CALLS} more calls over them are counted. Then the calls after idle gaps of {@link WindowsSection},
 * through Throttle's Redis store.
 */
final class InstructionsSection implements Section {

    static final int CALLS = 2_000;

    @Override
    public String name() {
        return "instructions";
    }

    @Override
    public void run(Context ctx) throws Exception {
        log("Instruction rows (redis-server under valgrind)");
        Map<String, Long> perCall = new LinkedHashMap<>();
        try (Callgrind vg = new Callgrind()) {
            RedisServer server = vg.server;
            Map<String, List<String>> commands = new LinkedHashMap<>();
            List<String> throttle = ScriptCommands.throttle(server.admin);
            commands.put("throttle", throttle);
            commands.put("client", ScriptCommands.clientClock(throttle));
            commands.put("seed", ScriptCommands.article(server.admin));
            commands.put("floor", ScriptCommands.withScript(throttle,
                    server.admin.scriptLoad(Context.resource(ScriptCommands.FLOOR_THREE_HEADERS))));
            List<String> nop = ScriptCommands.withScript(throttle, server.admin.scriptLoad("return 1"));
            commands.put("nop", nop);
            // another layout's least cost: the three windows' fifteen arguments as one, every window in one field
            List<String> client = commands.get("client");
            List<String> four = new ArrayList<>(client.subList(0, 7));
            four.add(String.join(",", client.subList(7, client.size())));
            commands.put("nop4", ScriptCommands.withScript(four, nop.get(1)));
            List<String> oneField = ScriptCommands.withScript(four, server.admin.scriptLoad(Context.resource(ScriptCommands.FLOOR_ONE_FIELD)));
            oneField.set(3, Engine.key("onefield", "key:__rand_int__"));
            commands.put("onefield", oneField);
            for (Map.Entry<String, List<String>> en : commands.entrySet()) {
                Processes.redisBenchmark(server.port, 4, 1_000, 1_000, en.getValue());
                server.admin.configResetstat();
                vg.zero();
                Processes.redisBenchmark(server.port, 4, CALLS, 1_000, en.getValue());
                long ir = vg.dump();
                long n = server.commandCalls().getOrDefault("evalsha", 0L);
                perCall.put(en.getKey(), ir / n);
                log(f("  %s: %d calls, %d instructions per call", en.getKey(), n, ir / n));
            }
            // the calls after idle gaps of the window rows, 1,000 identities
            try (RedisAdapter store = new RedisAdapter(server.uri(), Duration.ofSeconds(30), true)) {
                for (String which : new String[] {"sliding", "fixed"}) {
                    Engine.Bucket bucket = store.bucket("ig" + which, which.equals("sliding") ? Windows.SLIDING_HOUR : Windows.FIXED_HOUR);
                    long later = IdleGaps.setUp(server, bucket, 4, 1_000);
                    server.admin.configResetstat();
                    vg.zero();
                    Load.drain(4, 1_000, i -> bucket.decide(Context.identity(i), later));
                    long ir = vg.dump();
                    long n = server.commandCalls().getOrDefault("evalsha", 0L);
                    perCall.put(which + "-gap", ir / n);
                    log(f("  %s after gaps: %d calls, %d instructions per call", which, n, ir / n));
                }
            }
        }
        print(ctx, perCall);
    }

    private static void print(Context ctx, Map<String, Long> perCall) {
        ctx.title("The same scripts, instructions counted (redis-server under valgrind's callgrind; 2,000 calls over 1,000 identities after one call each; user-space instructions per call)");
        ctx.line("| script | Redis instructions per call | beyond `return 1` |");
        ctx.line("|---|---:|---:|");
        long base = perCall.get("nop");
        ctx.line(f("| `return 1`, Throttle's KEYS and ARGV | %,d | |", base));
        ctx.line(f("| floor (`bench/floor-three-headers.lua`) | %,d | %,d |", perCall.get("floor"), perCall.get("floor") - base));
        ctx.line(f("| Throttle `sliding-window.lua`, server clock | %,d | %,d |", perCall.get("throttle"), perCall.get("throttle") - base));
        ctx.line(f("| Throttle `sliding-window.lua`, client clock | %,d | %,d |", perCall.get("client"), perCall.get("client") - base));
        ctx.line(f("| 2014 article's script | %,d | %,d |", perCall.get("seed"), perCall.get("seed") - base));
        ctx.line(f("| article / Throttle, server clock | %.2f× | %.2f× |", perCall.get("seed") / (double) perCall.get("throttle"),
                (perCall.get("seed") - base) / (double) (perCall.get("throttle") - base)));
        ctx.line(f("| article / Throttle, client clock | %.2f× | %.2f× |", perCall.get("seed") / (double) perCall.get("client"),
                (perCall.get("seed") - base) / (double) (perCall.get("client") - base)));
        ctx.line(f("| `return 1`, the same KEYS, four arguments (the windows' fifteen joined in one) | %,d | %,d |",
                perCall.get("nop4"), perCall.get("nop4") - base));
        ctx.line(f("| floor of another layout: every window in one field (`HGET`, `HSET`), four arguments, given the time (`bench/floor-one-field.lua`) | %,d | %,d |",
                perCall.get("onefield"), perCall.get("onefield") - base));
        ctx.line("");
        model(ctx, perCall);
        ctx.line("A call after idle gaps (the window rows' workload below, 1,000 identities, through `RedisStore`):");
        ctx.line("");
        ctx.line("| window | Redis instructions per call |");
        ctx.line("|---|---:|");
        ctx.line(f("| 1 h by 1 s (3 sub-buckets leave) | %,d |", perCall.get("sliding-gap")));
        ctx.line(f("| fixed 1 h | %,d |", perCall.get("fixed-gap")));
        ctx.line(f("| fixed / sliding | %.2f× |", perCall.get("fixed-gap") / (double) perCall.get("sliding-gap")));
    }

    /**
     * Redis CPU per call, one request at a time on each connection, taken as K + c × instructions (K: the
     * kernel's share of a request, which callgrind does not see), fitted to {@code return 1} and the article's
     * script, whose CPU the script rows measured in this run; what it predicts for Throttle's script and the floor.
     */
    private static void model(Context ctx, Map<String, Long> perCall) {
        if (!ctx.scriptCpu.containsKey("nop")) {
            ctx.line("(Run the script rows in the same run for the fit of Redis CPU per call to instructions.)");
            return;
        }
        double cNop = ctx.scriptCpu.get("nop");
        double cSeed = ctx.scriptCpu.get("seed");
        double per = (cSeed - cNop) / (perCall.get("seed") - perCall.get("nop"));
        double k = cNop - per * perCall.get("nop");
        ctx.line(f("Redis CPU per call, one request at a time on each of 64 connections, fits K + c × instructions: from `return 1`"
                        + " and the article's script in this run, K = %.1f µs (the request's kernel share, not counted) and c = %.1f µs per"
                        + " 100,000 instructions. It predicts %.1f µs for Throttle's script given the time (measured %.1f µs) and %.1f µs"
                        + " for the floor (measured %.1f µs).",
                k, per * 100_000, k + per * perCall.get("client"), ctx.scriptCpu.get("client"), k + per * perCall.get("floor"),
                ctx.scriptCpu.get("floor")));
        ctx.line("");
    }
}
