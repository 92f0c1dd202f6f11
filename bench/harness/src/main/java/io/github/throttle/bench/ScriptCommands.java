package io.github.throttle.bench;

import io.lettuce.core.api.sync.RedisCommands;

import java.util.ArrayList;
import java.util.List;

/** The EVALSHA commands of the script and instruction rows, for redis-benchmark ({@code __rand_int__}: a random identity). */
final class ScriptCommands {

    /** The least a script that keeps state can cost: one field read and written. */
    static final String MINIMAL_SCRIPT = "redis.call('HGET', KEYS[1], 'h') redis.call('HSET', KEYS[1], 'h', ARGV[2]) return 1";
    static final String ARTICLE = "/bench/seed-article-sliding-window.lua";
    static final String FLOOR_THREE_HEADERS = "/bench/floor-three-headers.lua";
    static final String FLOOR_ONE_FIELD = "/bench/floor-one-field.lua";

    private ScriptCommands() {
    }

    /** Throttle's call (server clock) on random identities of the bucket {@code script}, its script loaded. */
    static List<String> throttle(RedisCommands<String, String> admin) {
        List<String> cmd = RedisAdapter.evalsha(Engine.key("script", "key:__rand_int__"), Windows.HIGH);
        cmd.set(1, admin.scriptLoad(RedisAdapter.SCRIPT));
        return cmd;
    }

    /**
     * The same call with the time given, as {@code throttle.time-source=client} sends it (and as the
     * article's script always takes it): one fixed instant for the whole run, like the article's call, and
     * keys of their own.
     */
    static List<String> clientClock(List<String> evalsha) {
        List<String> cmd = new ArrayList<>(evalsha);
        cmd.set(3, Engine.key("client", "key:__rand_int__"));
        cmd.set(6, Long.toString(System.currentTimeMillis(), 36)); // the call's now: ARGV[3]
        return cmd;
    }

    /** The 2014 article's script on random identities: {@link Windows#SEED_HIGH}, the time in seconds, weight 1. */
    static List<String> article(RedisCommands<String, String> admin) {
        return List.of("EVALSHA", admin.scriptLoad(Context.resource(ARTICLE)), "1", "seed:script:key:__rand_int__",
                Windows.SEED_HIGH, Long.toString(System.currentTimeMillis() / 1000), "1");
    }

    /** {@link #MINIMAL_SCRIPT} with the article's arguments. */
    static List<String> minimal(RedisCommands<String, String> admin) {
        return List.of("EVALSHA", admin.scriptLoad(MINIMAL_SCRIPT), "1", "minimal:key:__rand_int__",
                Windows.SEED_HIGH, Long.toString(System.currentTimeMillis() / 1000), "1");
    }

    /** {@code cmd} calling another script (its SHA-1) with the same KEYS and ARGV. */
    static List<String> withScript(List<String> cmd, String sha) {
        List<String> c = new ArrayList<>(cmd);
        c.set(1, sha);
        return c;
    }
}
