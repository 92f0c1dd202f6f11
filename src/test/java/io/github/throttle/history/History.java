package io.github.throttle.history;

import io.github.throttle.Decision;
import io.github.throttle.Outcome;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.Store;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Target;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.github.throttle.redis.RedisStores;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import org.eclipse.microprofile.config.Config;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link Scenario} against a store the way applications use the library: each instance a limiter
 * ({@link Bootstrap#assemble}) with connections and a clock of its own, many threads calling the methods of
 * {@link HistoryApi} as hot and cold clients, every call recorded on the history's one monotonic clock.
 */
final class History {

    /** A call: which instance made it, of which method and client, when it was made and answered, and its outcome. */
    record Call(int instance, String method, String address, long invoked, long answered, Outcome outcome) {
    }

    /** Where the calls are counted: the embedded store (one instance), or a Redis server every instance connects to. */
    record StoreAt(String kind, String redisUri) {
        static StoreAt embedded() {
            return new StoreAt("embedded", null);
        }

        static StoreAt redis(String kind, String uri) {
            return new StoreAt(kind, uri);
        }
    }

    /** Milliseconds on the history's clock: the wall clock at its start, moved by the monotonic clock since. */
    static final class Clock {
        private final long startMillis = System.currentTimeMillis();
        private final long startNanos = System.nanoTime();

        long millis() {
            return startMillis + (System.nanoTime() - startNanos) / 1_000_000;
        }

        InstantSource skewed(long skewMillis) {
            return new InstantSource() {
                @Override
                public Instant instant() {
                    return Instant.ofEpochMilli(millis());
                }

                @Override
                public long millis() {
                    return Clock.this.millis() + skewMillis;
                }
            };
        }
    }

    private static final String[] HOT = {"10.0.0.1", "10.0.0.2"};

    private History() {
    }

    static List<Call> run(Scenario s, StoreAt at, long lengthMillis, int threads) throws Exception {
        Clock clock = new Clock();
        int count = at.redisUri() == null ? 1 : s.skews().length;
        List<String> kv = new ArrayList<>(s.settings(at.redisUri()));
        kv.addAll(List.of(ThrottleSettings.KEY_PREFIX, "h" + Long.toHexString(s.seed()) + "-" + System.nanoTime()));
        Config config = TestConfig.of(kv.toArray(String[]::new));
        ThrottleSettings settings = ThrottleSettings.read(config);
        List<Limiter> instances = new ArrayList<>();
        ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int i = 0; i < count; i++) {
                InstantSource own = clock.skewed(s.skews()[i]);
                Store store = at.redisUri() == null ? new MemoryStore(own) : RedisStores.open(at.redisUri(), false, settings.redisTimeout());
                instances.add(Bootstrap.assemble(settings, config, store, own, History::construct, m -> false, Meters.NONE, Optional.empty()));
            }
            List<Target[]> targets = new ArrayList<>();
            for (Limiter l : instances) {
                Target[] t = new Target[HistoryApi.METHODS.length];
                for (int m = 0; m < t.length; m++) {
                    t[m] = l.target(HistoryApi.class, HistoryApi.class.getMethod(HistoryApi.METHODS[m]));
                }
                targets.add(t);
            }
            long end = clock.millis() + lengthMillis;
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> callers = new ArrayList<>();
            for (int c = 0; c < threads; c++) {
                Random r = new Random(s.seed() * 31 + c);
                callers.add(pool.submit(() -> {
                    start.await();
                    while (clock.millis() < end) {
                        int i = r.nextInt(instances.size());
                        int m = r.nextInt(HistoryApi.METHODS.length);
                        String address = r.nextInt(4) != 0 ? HOT[r.nextInt(HOT.length)] : "10.0.1." + r.nextInt(8);
                        long invoked = clock.millis();
                        Decision d = instances.get(i).admit(targets.get(i)[m], new TestCaller(address, null, Map.of()))
                                .toCompletableFuture().get(60, TimeUnit.SECONDS);
                        calls.add(new Call(i, HistoryApi.METHODS[m], address, invoked, clock.millis(), d.outcome()));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : callers) {
                f.get(lengthMillis + 120_000, TimeUnit.MILLISECONDS);
            }
        } finally {
            pool.shutdownNow();
            for (Limiter l : instances) {
                l.close();
            }
        }
        return new ArrayList<>(calls);
    }

    private static Object construct(Class<?> type) {
        try {
            var c = type.getDeclaredConstructor();
            c.setAccessible(true);
            return c.newInstance();
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
