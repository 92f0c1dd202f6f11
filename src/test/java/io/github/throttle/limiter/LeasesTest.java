package io.github.throttle.limiter;

import io.github.throttle.Decision;
import io.github.throttle.Outcome;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.Throttler;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.fleet.SharedFleet;
import io.github.throttle.metrics.Meters;
import io.github.throttle.metrics.MetricsBackends;
import io.github.throttle.testing.RedisClusterProcess;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TcpRelay;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leased quota of one hot key ({@code throttle.leases=auto}), through the limiter as an application runs it, over a
 * real Redis (standalone and Cluster), with several instances (each a limiter with a store of its own), two of them
 * with clocks 2 s off: never more than the limit in any window, fixed or sliding, checked against the one clock the
 * test reads; the store ends with exactly what was admitted; admin changes and resets end leases, and no give-back
 * crosses a reset; a lease that cannot be given back stays counted.
 */
class LeasesTest {

    /** How long a test waits for what only a fault would keep from happening. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    static class Api {
        @Throttle(limit = 3000, duration = 3600, name = "hot-fixed", key = ThrottleKey.Everyone.class)
        public void fixed() {
        }

        @Throttle(limit = 3000, duration = 3600, precision = 60, name = "hot-sliding", key = ThrottleKey.Everyone.class)
        public void sliding() {
        }

        @Throttle(limit = 200, duration = 1, name = "hot-second", key = ThrottleKey.Everyone.class)
        public void second() {
        }

        @Throttle(limit = 300, duration = 2000, precision = 500, unit = java.time.temporal.ChronoUnit.MILLIS, name = "hot-sub-buckets",
                key = ThrottleKey.Everyone.class)
        public void subBuckets() {
        }

        @Throttle(limit = 1000, duration = 3600, precision = 60, name = "hot-kept", key = ThrottleKey.Everyone.class)
        public void kept() {
        }

        @Throttle(limit = 1_000_000, duration = 3600, precision = 60, name = "opted-out", key = ThrottleKey.Everyone.class)
        public void optedOut() {
        }
    }

    /** One instance of the application: a limiter with a store of its own, its meters, and its clock's offset. */
    private record Instance(Limiter limiter, SimpleMeterRegistry registry) implements AutoCloseable {

        Decision call(String method) {
            try {
                return limiter.admit(limiter.target(Api.class, Api.class.getDeclaredMethod(method)), new TestCaller("10.0.0.7", null, Map.of()))
                        .toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }

        double count(String meter, String bucket, String... tags) {
            Counter c = registry.find(meter).tag("bucket", bucket).tags(tags).counter();
            return c == null ? 0 : c.count();
        }

        @Override
        public void close() {
            limiter.close();
        }
    }

    private static Instance instance(String uri, boolean cluster, long clockOffsetMillis, String... settings) {
        List<String> kv = new ArrayList<>(List.of(ThrottleSettings.REDIS_URI, uri, ThrottleSettings.REDIS_CLUSTER, Boolean.toString(cluster),
                ThrottleSettings.LEASES, "auto", ThrottleSettings.LEASES_MIN_RATE, "50", ThrottleSettings.LEASES_PERIOD, "100ms",
                ThrottleSettings.REDIS_TIMEOUT, "2s", ThrottleSettings.METRICS, "micrometer",
                Api.class.getName() + "/optedOut/Throttle/leases", "false"));
        kv.addAll(List.of(settings));
        Config c = TestConfig.of(kv.toArray(String[]::new));
        ThrottleSettings s = ThrottleSettings.read(c);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Meters meters = MetricsBackends.select("micrometer", type -> Optional.of(() -> registry)).orElseThrow();
        // the instance's wall clock: off by the offset (the store's clock decides windows, a lease's life is monotonic)
        InstantSource clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(clockOffsetMillis));
        Limiter l = Bootstrap.assemble(s, c, io.github.throttle.redis.RedisStores.open(uri, cluster, s.redisTimeout()), clock,
                ValidationTest::construct, m -> false, meters, Optional.empty());
        return new Instance(l, registry);
    }

    /** Three instances: one on the right time, one 2 s ahead, one 2 s behind. */
    private static List<Instance> threeInstances(String uri, boolean cluster) {
        return List.of(instance(uri, cluster, 0), instance(uri, cluster, 2000), instance(uri, cluster, -2000));
    }

    /**
     * An admission by instance {@code by}: it happened between these two readings of the test's clock (the Redis
     * server's, on this machine).
     */
    private record Admitted(int by, long from, long to) {
    }

    /**
     * Every instance calls {@code method} from two threads for {@code seconds}, as fast as it can: far above the limit.
     * The allowed calls, each between the clock's readings before and after it.
     */
    private static List<Admitted> hammer(List<Instance> instances, String method, double seconds, AtomicLong denied) throws Exception {
        return hammer(instances, new int[] {2, 2, 2}, method, seconds, denied);
    }

    /** As above, instance {@code i} calling from {@code threads[i]} threads. */
    private static List<Admitted> hammer(List<Instance> instances, int[] callers, String method, double seconds, AtomicLong denied)
            throws Exception {
        ConcurrentLinkedQueue<Admitted> admitted = new ConcurrentLinkedQueue<>();
        long until = System.nanoTime() + (long) (seconds * 1e9);
        List<CompletableFuture<Void>> calling = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(java.util.Arrays.stream(callers).sum());
        for (int n = 0; n < instances.size(); n++) {
            Instance i = instances.get(n);
            int by = n;
            for (int t = 0; t < callers[n]; t++) {
                calling.add(CompletableFuture.runAsync(() -> {
                    while (System.nanoTime() < until) {
                        long before = System.currentTimeMillis();
                        Outcome o = i.call(method).outcome();
                        long after = System.currentTimeMillis();
                        if (o == Outcome.ALLOWED) {
                            admitted.add(new Admitted(by, before, after));
                        } else {
                            assertEquals(Outcome.DENIED, o);
                            denied.incrementAndGet();
                        }
                    }
                }, threads));
            }
        }
        try {
            CompletableFuture.allOf(calling.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        } finally {
            threads.shutdown();
        }
        return List.copyOf(admitted);
    }

    /** The Redis server's clock, in milliseconds since the epoch. */
    private static long serverMillis(StatefulRedisConnection<String, String> admin) {
        List<String> time = admin.sync().time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    /** Script runs Redis made so far. */
    private static long scriptRuns(StatefulRedisConnection<String, String> admin) {
        long runs = 0;
        for (String line : admin.sync().info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                int a = line.indexOf("calls=");
                runs += Long.parseLong(line.substring(a + 6, line.indexOf(',', a)));
            }
        }
        return runs;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 60 s: " + what);
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /**
     * Calls {@code method} on {@code i} every 20 ms until it holds a lease of {@code bucket}: a period of calls makes
     * the key hot, and the next call asks for a lease as large as that period's calls. The calls allowed.
     */
    private static long untilLeased(Instance i, String method, String bucket) throws InterruptedException {
        long allowed = 0;
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (i.count(Meters.LEASES, bucket) == 0) {
            assertTrue(System.nanoTime() < deadline, "no lease within 60 s");
            if (i.call(method).allowed()) {
                allowed++;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return allowed;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fixed", "sliding"})
    void threeInstancesOnOneHotKeyAdmitExactlyTheLimitAndTheStoreEndsWithExactlyWhatWasAdmitted(String method) throws Exception {
        try (RedisProcess redis = RedisProcess.start()) {
            exactlyTheLimit(redis.uri(), false, method);
        }
    }

    @Test
    void onAClusterThreeInstancesOnOneHotKeyAdmitExactlyTheLimit() throws Exception {
        try (RedisClusterProcess cluster = RedisClusterProcess.start()) {
            exactlyTheLimit(cluster.seeds(), true, "sliding");
        }
    }

    private static void exactlyTheLimit(String uri, boolean cluster, String method) throws Exception {
        try (RedisClient client = RedisClient.create(cluster ? uri.split(",")[0] : uri);
             StatefulRedisConnection<String, String> admin = client.connect()) {
            List<Instance> instances = threeInstances(uri, cluster);
            try {
                // an hour's fixed window: the load must not cross its end (the rare start in its last 10 s waits)
                long intoHour = serverMillis(admin) % 3_600_000;
                if (intoHour > 3_590_000) {
                    TimeUnit.MILLISECONDS.sleep(3_600_000 - intoHour + 100);
                }
                long before = cluster ? 0 : scriptRuns(admin);
                AtomicLong denied = new AtomicLong();
                // unequal demand: one, two and four callers
                List<Admitted> admitted = hammer(instances, new int[] {1, 2, 4}, method, 3, denied);
                long allowed = admitted.size();
                long[] by = new long[3];
                admitted.forEach(a -> by[a.by()]++);
                if (!cluster) {
                    long runs = scriptRuns(admin) - before;
                    System.out.printf("leases, %s: %d allowed (%s), %d denied, %d script runs (%.4f per allowed call)%n", method,
                            allowed, java.util.Arrays.toString(by), denied.get(), runs, (double) runs / allowed);
                }
                assertEquals(3000, allowed, "the limit, and never more, of " + (allowed + denied.get()) + " asked");
                for (int i = 0; i < 3; i++) {
                    assertTrue(by[i] > 0, "instance " + i + " admitted calls too: " + java.util.Arrays.toString(by));
                }
                String bucket = "hot-" + method;
                assertTrue(instances.stream().mapToDouble(i -> i.count(Meters.LEASES, bucket)).sum() >= 3, "each instance leased");
                // closing an instance ends its leases and gives back what they held: the store counts exactly what was
                // admitted, so an instance without leases gets nothing more
                instances.forEach(Instance::close);
                try (Instance after = instance(uri, cluster, 0, ThrottleSettings.LEASES, "off")) {
                    assertEquals(Outcome.DENIED, after.call(method).outcome(), "the store held exactly what was admitted");
                }
            } finally {
                instances.forEach(Instance::close);
            }
        }
    }

    /**
     * Windows short enough that the load crosses several: a fixed second (200 a window), and 2 s by sub-buckets of
     * 500 ms (300 a window). Every window, placed by the test's clock on every sub-bucket's start, holds at most the
     * limit of the calls certainly admitted in it (between two readings inside it): a lease is never used past the
     * end of the sub-bucket it was recorded in, whatever an instance's clock says.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"second", "subBuckets"})
    void noWindowEverHoldsMoreThanTheLimit(String method) throws Exception {
        long limit = method.equals("second") ? 200 : 300;
        long sub = method.equals("second") ? 1000 : 500;
        int k = method.equals("second") ? 1 : 4;
        try (RedisProcess redis = RedisProcess.start()) {
            List<Instance> instances = threeInstances(redis.uri(), false);
            try {
                AtomicLong denied = new AtomicLong();
                List<Admitted> admitted = hammer(instances, method, 4.5, denied);
                long first = admitted.stream().mapToLong(Admitted::from).min().orElseThrow() / sub;
                long last = admitted.stream().mapToLong(Admitted::to).max().orElseThrow() / sub;
                int windows = 0;
                for (long b = first; b <= last; b++) {
                    long from = (b - k + 1) * sub;
                    long to = (b + 1) * sub;
                    long in = admitted.stream().filter(a -> a.from() >= from && a.to() < to).count();
                    assertTrue(in <= limit, "the window ending with sub-bucket " + b + " holds " + in + " > " + limit);
                    windows++;
                }
                assertTrue(windows >= 4, "the load crossed several windows: " + windows);
                assertTrue(instances.stream().mapToDouble(i -> i.count(Meters.LEASES, "hot-" + (method.equals("second") ? "second" : "sub-buckets")))
                        .sum() > 0, "leased");
                assertTrue(denied.get() > 0, "the demand was above the limit");
            } finally {
                instances.forEach(Instance::close);
            }
        }
    }

    /**
     * A reset deletes the key; a lease taken before it gives back what it did not use after it: into the generation
     * it was granted in, that is nowhere. The calls counted after the reset keep their count.
     */
    @Test
    void aGiveBackAfterAResetTakesNothingFromTheCallsCountedSince() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             Instance leasing = instance(redis.uri(), false, 0, ThrottleSettings.LEASES_MIN_RATE, "1", ThrottleSettings.LEASES_PERIOD, "1s");
             Instance other = instance(redis.uri(), false, 0, ThrottleSettings.LEASES, "off")) {
            untilLeased(leasing, "kept", "hot-kept");
            // the lease holds what a period of calls used (about 50), of which one call took one
            other.limiter.reset("hot-kept", "all:*").toCompletableFuture().get(30, TimeUnit.SECONDS);
            for (int i = 0; i < 10; i++) {
                assertEquals(Outcome.ALLOWED, other.call("kept").outcome());
            }
            leasing.close();
            assertTrue(leasing.count(Meters.LEASE_UNITS, "hot-kept", "outcome", Meters.GIVEN_BACK) > 0, "the lease gave back what it held");
            long more = 0;
            while (other.call("kept").outcome() == Outcome.ALLOWED) {
                more++;
            }
            assertEquals(990, more, "the 10 calls since the reset stay counted");
        }
    }

    /**
     * An admin change (an override of the bucket's limits) made on one instance ends another's leases through the
     * shared settings, well before their own end (a lease lives up to the period, 5 s here), and what they held goes
     * back.
     */
    @Test
    void anAdminChangeOnOneInstanceEndsTheLeasesOfAnother() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             Instance leasing = instance(redis.uri(), false, 0, ThrottleSettings.LEASES_MIN_RATE, "1", ThrottleSettings.LEASES_PERIOD, "5s");
             Instance admin = instance(redis.uri(), false, 0, ThrottleSettings.LEASES, "off")) {
            // the instance making the change knows the bucket from a call of its own (one more counted)
            admin.call("kept");
            untilLeased(leasing, "kept", "hot-kept");
            long changed = System.nanoTime();
            admin.limiter.fleet(SharedFleet.class).admin().override("hot-kept", "",
                    List.of(new Throttler.Rate(2000, Duration.ofHours(1), Duration.ofMinutes(1))), "ops");
            await("the lease given back", () -> leasing.count(Meters.LEASE_UNITS, "hot-kept", "outcome", Meters.GIVEN_BACK) > 0);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - changed);
            // the settings are read twice a second: the bound is 1 s; a lease would have lived up to 5 s
            assertTrue(tookMillis < 3000, "ended " + tookMillis + " ms after the change");
        }
    }

    /**
     * An instance whose store goes away while it holds a lease cannot give it back: what it did not use stays
     * counted (the safe side: the units are stranded, and metered), so the others get the limit minus the whole
     * lease, and not one call more.
     */
    @Test
    void aLeaseThatCannotBeGivenBackStaysCounted() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             TcpRelay relay = TcpRelay.start(redis.port());
             Instance leasing = instance("redis://127.0.0.1:" + relay.port(), false, 0, ThrottleSettings.LEASES_MIN_RATE, "1",
                     ThrottleSettings.LEASES_PERIOD, "1s", ThrottleSettings.REDIS_TIMEOUT, "300ms");
             Instance other = instance(redis.uri(), false, 0, ThrottleSettings.LEASES, "off")) {
            long allowedThere = untilLeased(leasing, "kept", "hot-kept");
            relay.cut();
            await("the lease stranded", () -> leasing.count(Meters.LEASE_UNITS, "hot-kept", "outcome", Meters.STRANDED) > 0);
            long stranded = (long) leasing.count(Meters.LEASE_UNITS, "hot-kept", "outcome", Meters.STRANDED);
            long more = 0;
            while (other.call("kept").outcome() == Outcome.ALLOWED) {
                more++;
            }
            assertEquals(1000, allowedThere + stranded + more, "what the lost lease held stays counted until its sub-bucket leaves");
        }
    }

    /**
     * A target with {@code …/Throttle/leases=false} is never leased, however hot; the same instance leases others.
     * {@code Throttle/leases=auto} is what an environment variable {@code THROTTLE_LEASES=auto} also says.
     */
    @Test
    void aTargetThatOptedOutIsNeverLeased() throws Exception {
        try (RedisProcess redis = RedisProcess.start();
             Instance i = instance(redis.uri(), false, 0, ThrottleSettings.LEASES_MIN_RATE, "10", "Throttle/leases", "auto")) {
            AtomicLong denied = new AtomicLong();
            hammer(List.of(i), "optedOut", 1, denied);
            untilLeased(i, "kept", "hot-kept");
            assertEquals(0, i.count(Meters.LEASES, "opted-out"), "no lease of a target that opted out");
        }
    }
}
