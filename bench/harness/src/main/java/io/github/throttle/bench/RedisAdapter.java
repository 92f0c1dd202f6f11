package io.github.throttle.bench;

import io.github.throttle.bench.Windows.Window;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.redis.RedisStore;
import io.github.throttle.redis.SlidingWindowScript;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Throttle's Redis store behind the decider, and its script (the library's internal classes: see {@link Engine}). */
final class RedisAdapter implements AutoCloseable {

    /** The text of Throttle's script, {@code sliding-window.lua}. */
    static final String SCRIPT = SlidingWindowScript.TEXT;

    private final RedisStore store;
    private final Engine engine;

    /** @param clientTime whether calls carry the caller's time ({@code throttle.time-source=client}) */
    RedisAdapter(String uri, Duration timeout, boolean clientTime) {
        this.store = new RedisStore(uri, timeout);
        this.engine = new Engine(store, clientTime, timeout);
    }

    Engine.Bucket bucket(String name, Window[] windows) {
        return engine.bucket(name, windows);
    }

    /** The EVALSHA that Throttle sends for {@code key} (its exact ARGV, the server's clock), for redis-benchmark. */
    static List<String> evalsha(String key, Window[] windows) {
        StoreCall c = Engine.detached("bench", windows).call("x", -1);
        SlidingWindowScript.Run run = new SlidingWindowScript.Run(0).decide(c);
        List<String> cmd = new ArrayList<>(List.of("EVALSHA", SlidingWindowScript.SHA1, "1", key));
        cmd.addAll(Arrays.asList(run.args()));
        return cmd;
    }

    @Override
    public void close() {
        store.close();
    }
}
