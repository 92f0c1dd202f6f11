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

    /** Where the calls are counted: the embedded store (one instance), or Redis (standalone or a Cluster) every instance connects to. */
    record StoreAt(String kind, String redisUri, boolean cluster) {
        static StoreAt embedded() {
            return new StoreAt("embedded", null, false);
        }

        static StoreAt redis(String kind, String uri, boolean cluster) {
            return new StoreAt(kind, uri, cluster);
        }
    }

    /**
     * The calls of a history, and where the store's clock stood against the history's: store time is history time
     * plus {@code storeOffset}, to within {@code offsetError} either way (under {@code time-source=client}, each
     * instance's skew instead, exactly).
     */
    record Record(List<Call> calls, List<Reset> resets, long storeOffset, long offsetError) {
    }

    /** A reset of one client's counts in one bucket, by one instance, between these two readings of the clock. */
    record Reset(String bucket, String address, long invoked, long answered) {
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

    static Record run(Scenario s, StoreAt at, long lengthMillis, int threads) throws Exception {
        Clock clock = new Clock();
        int count = at.redisUri() == null ? 1 : s.skews().length;
        List<String> kv = new ArrayList<>(s.settings(at.redisUri()));
        kv.addAll(List.of(ThrottleSettings.REDIS_CLUSTER, Boolean.toString(at.cluster())));
        kv.addAll(List.of(ThrottleSettings.KEY_PREFIX, "h" + Long.toHexString(s.seed()) + "-" + System.nanoTime()));
        Config config = TestConfig.of(kv.toArray(String[]::new));
        ThrottleSettings settings = ThrottleSettings.read(config);
        List<Limiter> instances = new ArrayList<>();
        ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Reset> resets = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            for (int i = 0; i < count; i++) {
                InstantSource own = clock.skewed(s.skews()[i]);
                Store store = at.redisUri() == null ? new MemoryStore(own) : RedisStores.open(at.redisUri(), at.cluster(), settings.redisTimeout());
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
            if (s.resets()) {
                Random r = new Random(s.seed() * 17);
                List<String> buckets = s.targets().stream().flatMap(t -> t.limits().stream()).map(Scenario.LimitSpec::bucket).distinct().toList();
                callers.add(pool.submit(() -> {
                    start.await();
                    while (clock.millis() < end) {
                        Thread.sleep(50 + r.nextInt(300));
                        String bucket = buckets.get(r.nextInt(buckets.size()));
                        String address = HOT[r.nextInt(HOT.length)];
                        long invoked = clock.millis();
                        instances.get(r.nextInt(instances.size())).reset(bucket, "ip:" + address).toCompletableFuture().get(60, TimeUnit.SECONDS);
                        resets.add(new Reset(bucket, address, invoked, clock.millis()));
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
        long[] offset = at.redisUri() == null || s.clientTime() ? new long[2] : storeOffset(at, clock);
        return new Record(new ArrayList<>(calls), new ArrayList<>(resets), offset[0], offset[1]);
    }

    /** The Redis server's clock against the history's ({@code TIME}, the least error of a few samples): offset and error. */
    private static long[] storeOffset(StoreAt at, Clock clock) {
        io.lettuce.core.AbstractRedisClient client = at.cluster()
                ? io.lettuce.core.cluster.RedisClusterClient.create(at.redisUri().split(",")[0])
                : io.lettuce.core.RedisClient.create(at.redisUri());
        try (var c = client instanceof io.lettuce.core.RedisClient r ? r.connect() : null;
             var cc = client instanceof io.lettuce.core.cluster.RedisClusterClient r ? r.connect() : null) {
            long best = Long.MAX_VALUE;
            long offset = 0;
            for (int i = 0; i < 5; i++) {
                long before = clock.millis();
                List<String> time = c != null ? c.sync().time() : cc.sync().time();
                long after = clock.millis();
                long server = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
                if (after - before < best) {
                    best = after - before;
                    offset = server - before;
                }
            }
            // the server read its clock between the two readings; both are whole milliseconds
            return new long[]{offset, best + 1};
        } finally {
            client.shutdown();
        }
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
