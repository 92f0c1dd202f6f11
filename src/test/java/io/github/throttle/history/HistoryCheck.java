package io.github.throttle.history;

import io.github.throttle.Outcome;
import io.github.throttle.testing.RedisClusterProcess;
import io.github.throttle.testing.RedisProcess;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Histories of random configurations run against real stores, each checked against the contract's model
 * ({@link Model}): no window of any limit over its limit, whatever placement of the calls inside their intervals.
 *
 * <p>Short mode (in the suite): a few histories on the embedded store and on a Redis server. Long mode:
 * {@code -Dhistory.count=N -Dhistory.seed=S}. The last line printed reads
 * {@code HISTORY seed=S histories=N calls=… allowed=… violations=V}; a violation prints its seed, configuration and
 * the window that broke.
 */
class HistoryCheck {

    @Test
    void noWindowOverItsLimit() throws Exception {
        long seed = Long.getLong("history.seed", ThreadLocalRandom.current().nextLong());
        int count = Integer.getInteger("history.count", 6);
        long length = Long.getLong("history.length", 1200);
        List<String> broken = new ArrayList<>();
        long calls = 0;
        long allowed = 0;
        try (RedisProcess redis = RedisProcess.start(); RedisClusterProcess cluster = RedisClusterProcess.start()) {
            List<History.StoreAt> stores = List.of(History.StoreAt.embedded(), History.StoreAt.redis("redis", redis.uri(), false),
                    History.StoreAt.redis("cluster", cluster.seeds(), true));
            for (int h = 0; h < count; h++) {
                Scenario s = Scenario.draw(seed + h);
                History.StoreAt at = stores.get(h % stores.size());
                History.Record history = History.run(s, at, length, 6);
                calls += history.calls().size();
                allowed += history.calls().stream().filter(c -> c.outcome() == Outcome.ALLOWED).count();
                Optional<Model.Broken> b = Model.check(s, history);
                if (b.isPresent()) {
                    String report = "on the " + at.kind() + " store, " + s + "\n  " + b.get();
                    System.out.println("HISTORY VIOLATION " + report);
                    broken.add(report);
                }
            }
        }
        System.out.println("HISTORY seed=" + seed + " histories=" + count + " calls=" + calls + " allowed=" + allowed
                + " violations=" + broken.size());
        assertEquals(List.of(), broken, "seed " + seed);
    }
}
