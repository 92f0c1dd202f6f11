package io.github.throttle.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.github.throttle.bench.Context.IDENTITIES;
import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;
import static io.github.throttle.bench.Stats.rate;
import static io.github.throttle.bench.Stats.x;

/**
 * The scripts server-side (redis-benchmark, 64 connections): Throttle's script with the server's and the
 * client's clock, the 2014 article's script, the same calls pipelined, Throttle's script cut short at
 * successive points, and two floors; decisions per second, Redis commands and Redis CPU per decision.
 * Leaves the CPU figures in {@link Context#scriptCpu} for {@link InstructionsSection}.
 */
final class ScriptSection implements Section {

    static final String PIPELINED = "-pipelined";

    /** Where Throttle's script spends Redis CPU: the same call, the script cut short before the given text. */
    static final String[][] CUTS = {
            {"nop", "`return 1` (EVALSHA's own cost)", null},
            {"args", "Throttle's script up to its ARGV parsing and `TIME`", "local floor = math.floor"},
            {"hmget", "… plus the headers read (`HMGET`)", "  local out, o, before, after = {"},
            {"read", "… plus the decision, reply and writes prepared", "if allowed then\n"},
            {"write", "… plus the writes (`HSET`, `PTTL`/`PEXPIRE` when the key's end moves)", "if mode == '2' then\n  for y"}};

    @Override
    public String name() {
        return "script";
    }

    @Override
    public void run(Context ctx) {
        log("Script rows");
        RedisServer redis = ctx.redis;
        List<String> throttle = ScriptCommands.throttle(redis.admin);
        int c = 64;
        Map<String, List<String>> commands = new LinkedHashMap<>();
        commands.put("throttle", throttle);
        commands.put("client", ScriptCommands.clientClock(throttle));
        commands.put("seed", ScriptCommands.article(redis.admin));
        commands.put("floor", ScriptCommands.withScript(throttle,
                redis.admin.scriptLoad(Context.resource(ScriptCommands.FLOOR_THREE_HEADERS))));
        // the least a script that keeps state can cost: one field read and written, the article's arguments
        commands.put("minimal", ScriptCommands.minimal(redis.admin));
        String text = RedisAdapter.SCRIPT;
        for (String[] cut : CUTS) {
            String body = cut[2] == null ? "return 1" : text.replace(cut[2], "do return 1 end\n" + cut[2]);
            if (cut[2] != null && body.equals(text)) {
                throw new IllegalStateException("no cut point " + cut[2]);
            }
            commands.put(cut[0], ScriptCommands.withScript(throttle, redis.admin.scriptLoad(body)));
        }
        // the same calls pipelined (16 in flight on each of the 64 connections), as a client library sends them
        // over a shared connection: each request's socket work is shared with others, the scripts' own work is not
        for (String which : List.of("client", "seed")) {
            commands.put(which + PIPELINED, commands.get(which));
        }
        Stats s = new Stats();
        for (int round = -1; round < ctx.rounds; round++) {
            for (Map.Entry<String, List<String>> en : commands.entrySet()) {
                String which = en.getKey();
                redis.admin.configResetstat();
                double cpu0 = redis.cpuSeconds();
                double rps = ctx.redisBenchmark("script-" + which, c, which.endsWith(PIPELINED) ? 16 : 1, IDENTITIES, en.getValue());
                double cpu1 = redis.cpuSeconds();
                Map<String, Long> calls = redis.commandCalls();
                long decisions = calls.getOrDefault("evalsha", 0L);
                long inside = 0;
                for (Map.Entry<String, Long> e : calls.entrySet()) {
                    if (!e.getKey().equals("evalsha") && !e.getKey().startsWith("config") && !e.getKey().equals("info")) {
                        inside += e.getValue();
                    }
                }
                if (round >= 0) {
                    s.add(which, c, rps);
                    s.add(which + "-cpu", c, (cpu1 - cpu0) / decisions * 1e6);
                    s.add(which + "-cmds", c, (double) inside / decisions);
                    log(f("  round %d: %s %s, %.1f µs CPU, %.2f commands per decision %s", round + 1, which, rate(rps),
                            (cpu1 - cpu0) / decisions * 1e6, (double) inside / decisions, calls));
                }
            }
        }
        for (String which : List.of("nop", "seed", "client", "throttle", "floor")) {
            ctx.scriptCpu.put(which, s.median(which + "-cpu", c));
        }
        print(ctx, s, c);
    }

    private static void print(Context ctx, Stats s, int c) {
        ctx.title("The script server-side (redis-benchmark, 64 clients, 10,000 random identities, limits 1 s + 1 min + 1 h by 1 min, every call allowed)");
        ctx.line("| script | decisions/s | Redis commands per decision (inside the script) | Redis CPU per decision |");
        ctx.line("|---|---:|---:|---:|");
        row(ctx, s, c, "Throttle `sliding-window.lua` (server clock: `TIME` inside, the default)", "throttle");
        row(ctx, s, c, "Throttle `sliding-window.lua` (client clock: the time in ARGV, like the article's script)", "client");
        row(ctx, s, c, "2014 article's sliding-window script (`bench/harness/src/main/resources/bench/seed-article-sliding-window.lua`)", "seed");
        ratio(ctx, s, c, "Throttle (server clock) / article", "throttle", "seed");
        ratio(ctx, s, c, "Throttle (client clock) / article", "client", "seed");
        row(ctx, s, c, "pipelined, 16 in flight per connection: Throttle (client clock)", "client" + PIPELINED);
        row(ctx, s, c, "pipelined, 16 in flight per connection: article", "seed" + PIPELINED);
        ratio(ctx, s, c, "pipelined: Throttle (client clock) / article", "client" + PIPELINED, "seed" + PIPELINED);
        ctx.line("");
        ctx.line("Where Throttle's script spends its time (same calls, script cut short; Redis CPU per call):");
        ctx.line("");
        ctx.line("| script | calls/s | Redis CPU per call |");
        ctx.line("|---|---:|---:|");
        for (String[] cut : CUTS) {
            cpuRow(ctx, s, c, cut[1], cut[0]);
        }
        cpuRow(ctx, s, c, "the whole script (also builds the reply)", "throttle");
        cpuRow(ctx, s, c, "floor: a script of the same shape that decides nothing (`TIME`, `HMGET` of 3 packed headers, `HSET` of 3, constant reply: `bench/floor-three-headers.lua`)", "floor");
        cpuRow(ctx, s, c, "minimal: one field read and written (`HGET`, `HSET`), the article's three arguments", "minimal");
        ctx.line("");
        ctx.line(f("The floor runs at %s the article's script, the minimal script at %s.", x(s.ratio("floor", "seed", c)),
                x(s.ratio("minimal", "seed", c))));
        ctx.line("");
    }

    private static void row(Context ctx, Stats s, int c, String label, String which) {
        ctx.line(f("| %s | %s | %.2f | %.1f µs |", label, rate(s.median(which, c)), s.median(which + "-cmds", c), s.median(which + "-cpu", c)));
    }

    /** Decisions/s of {@code a} over {@code b}, and how many times less Redis CPU {@code a} takes per decision. */
    private static void ratio(Context ctx, Stats s, int c, String label, String a, String b) {
        ctx.line(f("| %s | %s | | %s less CPU |", label, x(s.ratio(a, b, c)), x(s.ratio(b + "-cpu", a + "-cpu", c))));
    }

    private static void cpuRow(Context ctx, Stats s, int c, String label, String which) {
        ctx.line(f("| %s | %s | %.1f µs |", label, rate(s.median(which, c)), s.median(which + "-cpu", c)));
    }
}
