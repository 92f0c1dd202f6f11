package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.ThrottlePlan;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.Took;
import io.github.throttle.engine.Taken;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.github.throttle.metrics.MetricsBackends;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plans, allow and block lists, per-call weight and weight given back, as the limiter applies them. */
class PlansTest {

    static class Api {
        @Throttle(limit = 3, duration = 60, key = ThrottleKey.ApiKey.class)
        @Throttle(limit = 10, duration = 60, key = ThrottleKey.ApiKey.class, plan = "pro")
        @Throttle(limit = 100, duration = 3600, key = ThrottleKey.ApiKey.class, plan = "pro")
        public void search() { }

        @Throttle(limit = 2, duration = 60)
        public void export() { }

        @Throttle(limit = 5, duration = 60, weigher = BatchSize.class)
        public void batch() { }

        @Throttle(limit = 5, duration = 60, skipSuccessful = true)
        public void login() { }
    }

    /** The weight is the query parameter {@code size} (1 without it). */
    public static class BatchSize implements ThrottleWeight {
        @Override
        public long weigh(Caller caller) {
            return caller.queryParameter("size").map(Long::parseLong).orElse(1L);
        }
    }

    static class PlanFromHeader implements ThrottlePlan {
        @Override
        public Optional<String> plan(Caller caller) {
            return caller.header("X-Plan");
        }
    }

    /** The embedded store, counting the calls it is asked to decide. */
    static final class CountingStore implements Store {
        final MemoryStore store;
        final AtomicInteger decided = new AtomicInteger();

        CountingStore(MutableClock clock) {
            store = new MemoryStore(clock);
        }

        @Override
        public CompletionStage<StoreReply> decide(StoreCall call) {
            decided.incrementAndGet();
            return store.decide(call);
        }

        @Override
        public CompletionStage<Void> giveBack(Took took) {
            return store.giveBack(took);
        }

        @Override
        public CompletionStage<Void> reset(String... keys) {
            return store.reset(keys);
        }

        @Override
        public CompletionStage<Void> resetAll(KeyCodec codec) {
            return store.resetAll(codec);
        }

        @Override
        public String kind() {
            return store.kind();
        }

        @Override
        public String describe() {
            return store.describe();
        }

        @Override
        public void close() {
            store.close();
        }
    }

    private final MutableClock clock = new MutableClock(1_790_000_000_000L);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CountingStore store = new CountingStore(clock);

    private Limiter limiter(Optional<ThrottlePlan> bean, String... config) {
        Config c = TestConfig.of(config);
        Meters meters = MetricsBackends.select("micrometer", type -> Optional.of(() -> registry)).orElseThrow();
        Limiter l = Bootstrap.assemble(ThrottleSettings.read(c), c, store, clock, ValidationTest::construct, m -> false, meters, bean);
        for (Method m : Api.class.getDeclaredMethods()) {
            l.target(Api.class, m);
        }
        return l;
    }

    private Limiter limiter(String... config) {
        return limiter(Optional.empty(), config);
    }

    private static Decision call(Limiter l, String method, Caller caller) throws Exception {
        return l.admit(l.target(Api.class, Api.class.getDeclaredMethod(method)), caller).toCompletableFuture().join();
    }

    private static TestCaller key(String key) {
        return new TestCaller("192.0.2.1", null, Map.of("X-API-Key", key));
    }

    private double calls(String bucket, String plan, String result) {
        var c = registry.find(Meters.CALLS).tags("bucket", bucket, "plan", plan, "result", result).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aListedCallerGetsItsPlansLimitsInsteadOfTheDefaults() throws Exception {
        Limiter l = limiter("throttle.plans.pro", "key:k-pro, user:ann");
        Decision free = call(l, "search", key("k-free"));
        assertEquals(List.of(3L), free.quotas().stream().map(Decision.Quota::limit).toList());
        assertTrue(free.plan().isEmpty());
        Decision pro = call(l, "search", key("k-pro"));
        assertEquals(List.of(10L, 100L), pro.quotas().stream().map(Decision.Quota::limit).toList());
        assertEquals(Optional.of("pro"), pro.plan());
        // a target that declares nothing for the plan gives it the default limits, tagged default
        Decision export = call(l, "export", new TestCaller("192.0.2.1", "ann", Map.of()));
        assertEquals(List.of(2L), export.quotas().stream().map(Decision.Quota::limit).toList());
        assertTrue(export.plan().isEmpty());
        String search = Api.class.getName() + "#search";
        assertEquals(1, calls(search, "pro", "allowed"));
        assertEquals(1, calls(search, "default", "allowed"));
        assertEquals(1, calls(Api.class.getName() + "#export", "default", "allowed"));
    }

    @Test
    void anIdentityThatChangesPlanMidWindowKeepsItsUsage() throws Exception {
        Limiter l = limiter(Optional.of(new PlanFromHeader()));
        TestCaller free = new TestCaller("192.0.2.1", null, Map.of("X-API-Key", "k1"));
        TestCaller pro = new TestCaller("192.0.2.1", null, Map.of("X-API-Key", "k1", "X-Plan", "pro"));
        for (int i = 0; i < 3; i++) {
            assertTrue(call(l, "search", free).allowed());
        }
        assertFalse(call(l, "search", free).allowed());
        Decision upgraded = call(l, "search", pro);
        assertTrue(upgraded.allowed());
        assertEquals(6, upgraded.quotas().get(0).remaining(), "10 a minute, 3 used on the free plan, 1 now");
        for (int i = 0; i < 6; i++) {
            call(l, "search", pro);
        }
        // back on the free plan: the 10 used count against its 3
        Decision downgraded = call(l, "search", free);
        assertFalse(downgraded.allowed());
        assertEquals(0, downgraded.remaining());
    }

    @Test
    void listsComeFirstInTheirOrderThenTheBeanWhoseUnknownNamesMeanNoPlan() throws Exception {
        Limiter l = limiter(Optional.of(new PlanFromHeader()), "throttle.plans.blocked", "ip:203.0.113.0/24",
                "throttle.plans.unlimited", "ip:2001:db8::/32, key:monitor", "throttle.plans.pro", "user:bob");
        assertTrue(call(l, "search", new TestCaller("203.0.113.9", null, Map.of("X-API-Key", "monitor"))).isBlocked());
        assertEquals(Optional.of("unlimited"), call(l, "search", new TestCaller("2001:db8::1", "bob", Map.of("X-API-Key", "k"))).plan());
        assertEquals(Optional.of("unlimited"), call(l, "search", key("monitor")).plan());
        assertEquals(Optional.of("pro"), call(l, "search", new TestCaller("192.0.2.1", "bob", Map.of("X-Plan", "blocked"))).plan());
        assertTrue(call(l, "search", new TestCaller("192.0.2.1", null, Map.of("X-Plan", "blocked"))).isBlocked());
        assertEquals(Optional.of("unlimited"), call(l, "search", new TestCaller("192.0.2.1", null, Map.of("X-Plan", "unlimited"))).plan());
        assertTrue(call(l, "search", new TestCaller("192.0.2.1", null, Map.of("X-Plan", "gold", "X-API-Key", "g"))).plan().isEmpty());
        // an IPv4 address seen as IPv4-mapped IPv6 is in the IPv4 block
        assertTrue(call(l, "search", new TestCaller("::ffff:203.0.113.7", null, Map.of())).isBlocked());
    }

    @Test
    void singleAddressesAreMatchedHoweverWrittenBesideBlocks() throws Exception {
        Limiter l = limiter(Optional.empty(), "throttle.plans.blocked", "ip:198.51.100.7, ip:2001:db8:0:0:0:0:0:1, ip:10.0.0.0/8",
                "throttle.plans.pro", "ip:::ffff:192.0.2.9");
        assertTrue(call(l, "search", new TestCaller("198.51.100.7", null, Map.of())).isBlocked());
        assertTrue(call(l, "search", new TestCaller("::ffff:198.51.100.7", null, Map.of())).isBlocked());
        assertTrue(call(l, "search", new TestCaller("[2001:db8::1]", null, Map.of())).isBlocked());
        assertTrue(call(l, "search", new TestCaller("10.20.30.40", null, Map.of())).isBlocked());
        assertFalse(call(l, "search", new TestCaller("198.51.100.8", null, Map.of())).isBlocked());
        assertEquals(Optional.of("pro"), call(l, "search", new TestCaller("::ffff:192.0.2.9", null, Map.of())).plan());
    }

    @Test
    void unlimitedAndBlockedCallsAreNeverCountedAndNeverAskTheStore() throws Exception {
        Limiter l = limiter("throttle.plans.unlimited", "key:monitor", "throttle.plans.blocked", "key:abuser");
        for (int i = 0; i < 10; i++) {
            Decision unlimited = call(l, "search", key("monitor"));
            assertFalse(unlimited.outcome().refused());
            assertTrue(unlimited.isUnmetered(), "no fields");
            Decision blocked = call(l, "search", key("abuser"));
            assertTrue(blocked.outcome().refused());
            assertTrue(blocked.isUnmetered(), "no fields");
            assertTrue(blocked.isBlocked());
        }
        assertEquals(0, store.decided.get());
        String search = Api.class.getName() + "#search";
        assertEquals(10, calls(search, "unlimited", "unlimited"));
        assertEquals(10, calls(search, "blocked", "blocked"));
    }

    @Test
    void inReportModeABlockedCallerIsLetThroughAndCountedAsWouldDeny() throws Exception {
        Limiter l = limiter("throttle.mode", "report", "throttle.plans.blocked", "key:abuser");
        Decision v = call(l, "search", key("abuser"));
        assertFalse(v.outcome().refused());
        assertEquals(1, calls(Api.class.getName() + "#search", "blocked", "would-deny"));
    }

    @Test
    void aWeigherGivesTheWeightAndZeroIsFreeAndTooHeavyIsRefusedUncounted() throws Exception {
        Limiter l = limiter();
        Decision four = call(l, "batch", new TestCaller("192.0.2.1", null, Map.of(), Map.of("size", "4")));
        assertEquals(1, four.remaining());
        Decision free = call(l, "batch", new TestCaller("192.0.2.1", null, Map.of(), Map.of("size", "0")));
        assertTrue(free.allowed());
        assertFalse(free.isUnmetered(), "a free call still gets the fields");
        assertEquals(1, free.remaining(), "and is not counted");
        Limiter.Overweight tooHeavy = assertThrows(Limiter.Overweight.class,
                () -> call(l, "batch", new TestCaller("192.0.2.1", null, Map.of(), Map.of("size", "6"))));
        assertTrue(tooHeavy.getMessage().contains("6"), tooHeavy.getMessage());
        assertEquals(1, calls(Api.class.getName() + "#batch", "default", "denied"));
        assertEquals(1, call(l, "batch", new TestCaller("192.0.2.1", null, Map.of(), Map.of("size", "1"))).remaining() + 1,
                "nothing was recorded for the refused call");
        // a free call is allowed even past the limit
        assertTrue(call(l, "batch", new TestCaller("192.0.2.1", null, Map.of(), Map.of("size", "0"))).allowed());
    }

    @Test
    void aWeigherThatFailsFailsTheCallAndNothingIsRecorded() throws Exception {
        Limiter l = limiter();
        assertThrows(NumberFormatException.class, () -> call(l, "batch", new TestCaller("192.0.2.1", null, Map.of(), Map.of("size", "x"))));
        assertThrows(IllegalStateException.class, () -> call(l, "batch", new TestCaller("192.0.2.1", null, Map.of(), Map.of("size", "-2"))));
        assertEquals(0, store.decided.get());
    }

    @Test
    void aSuccessfulCallOfATargetThatSkipsSuccessesGivesItsWeightBack() throws Exception {
        Limiter l = limiter();
        TestCaller caller = TestCaller.of(null, "192.0.2.1");
        for (int i = 0; i < 20; i++) {
            Decision ok = call(l, "login", caller);
            assertTrue(ok.allowed());
            ok.ending().giveBack().toCompletableFuture().join();
            // a second give-back of the same decision does nothing
            ok.ending().giveBack().toCompletableFuture().join();
        }
        for (int i = 0; i < 5; i++) {
            assertTrue(call(l, "login", caller).allowed(), "failure " + i);
        }
        assertFalse(call(l, "login", caller).allowed(), "the sixth failure");
    }

    @Test
    void programmaticCallsCanGiveTheirWeightBack() {
        Limiter l = limiter();
        var rate = List.of(io.github.throttle.engine.Limit.fixed(2, 60_000));
        Decision first = l.acquire("api", "user:ann", 2, true, rate, 0).toCompletableFuture().join();
        assertFalse(l.acquire("api", "user:ann", 1, true, rate, 0).toCompletableFuture().join().allowed());
        first.ending().giveBack().toCompletableFuture().join();
        assertEquals(1, l.acquire("api", "user:ann", 1, true, rate, 0).toCompletableFuture().join().remaining());
    }

    static class NoDefaults {
        @Throttle(limit = 10, plan = "pro")
        public void search() { }
    }

    static class Reserved {
        @Throttle(limit = 10)
        @Throttle(limit = 10, plan = "unlimited")
        public void search() { }
    }

    static class BadName {
        @Throttle(limit = 10)
        @Throttle(limit = 10, plan = "Pro_Plan")
        public void search() { }
    }

    static class SameWindowTwoPlans {
        @Throttle(limit = 10, duration = 60)
        @Throttle(limit = 50, duration = 60, plan = "pro")
        public void search() { }
    }

    private static String fails(Class<?> type, String... config) {
        Config c = TestConfig.of(config);
        return assertThrows(InvalidThrottleException.class, () -> {
            Limiter l = Bootstrap.assemble(ThrottleSettings.read(c), c, new MemoryStore(java.time.InstantSource.system()),
                    java.time.InstantSource.system(), ValidationTest::construct, m -> false, Meters.NONE, Optional.empty());
            l.target(type, type.getDeclaredMethod("search"));
        }).getMessage();
    }

    @Test
    void badPlansAndListsFailStartUpNamingTheMethodOrTheKey() throws Exception {
        assertTrue(fails(NoDefaults.class).contains(NoDefaults.class.getName() + "#search"), fails(NoDefaults.class));
        assertTrue(fails(NoDefaults.class).contains("none for calls on no plan"));
        assertTrue(fails(Reserved.class).contains("plan = \"unlimited\" is reserved"), fails(Reserved.class));
        assertTrue(fails(BadName.class).contains("plan = \"Pro_Plan\""), fails(BadName.class));
        String prefix = fails(SameWindowTwoPlans.class, "throttle.plans.pro", "email:a@b.c");
        assertTrue(prefix.contains("throttle.plans.pro=email:a@b.c"), prefix);
        String cidr = fails(SameWindowTwoPlans.class, "throttle.plans.blocked", "ip:10.0.0.0/33");
        assertTrue(cidr.contains("throttle.plans.blocked=ip:10.0.0.0/33"), cidr);
        String twice = fails(SameWindowTwoPlans.class, "throttle.plans.unlimited", "ip:10.1.0.0/16",
                "throttle.plans.pro", "ip:10.1.9.9/16");
        assertTrue(twice.contains("throttle.plans.pro") && twice.contains("same entry is in throttle.plans.unlimited"), twice);
    }

    @Test
    void limitsOfDifferentPlansMayCountTheSameWindow() throws Exception {
        Config c = TestConfig.of();
        Limiter l = Bootstrap.assemble(ThrottleSettings.read(c), c, store, clock, ValidationTest::construct, m -> false,
                Meters.NONE, Optional.empty());
        Target t = l.target(SameWindowTwoPlans.class, SameWindowTwoPlans.class.getDeclaredMethod("search"));
        assertEquals(10, t.limitsOn(null).limits().get(0).limit());
        assertEquals(50, t.limitsOn("pro").limits().get(0).limit());
        assertNull(t.limitsOn("gold").plan());
    }
}
