package io.github.throttle.limiter;

import io.github.throttle.Decision;
import io.github.throttle.Outcome;
import io.github.throttle.Caller;
import io.github.throttle.Throttle;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.config.ThrottleSettings;
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
import java.security.Principal;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Report mode refuses nothing, keeps enforce mode's bookkeeping, and counts what it would have refused. */
class ReportModeTest {

    static class Api {
        @Throttle(limit = 3, duration = 60)
        public void search() { }

        @Throttle(limit = 3, duration = 60, name = "exports")
        public void export() { }
    }

    private final MutableClock clock = new MutableClock(1_790_000_000_000L);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Limiter limiter(String... config) {
        Config c = TestConfig.of(config);
        Meters meters = MetricsBackends.select("micrometer", type -> Optional.of(() -> registry)).orElseThrow();
        return Bootstrap.assemble(ThrottleSettings.read(c), c, new MemoryStore(clock), clock,
                ValidationTest::construct, m -> false, meters, Optional.empty());
    }

    private static Method method(String name) throws NoSuchMethodException {
        return Api.class.getDeclaredMethod(name);
    }

    private double calls(String bucket, String result) {
        var c = registry.find(Meters.CALLS).tags("bucket", bucket, "plan", "default", "result", result).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void enforceModeRefusesTheCallOverTheLimitAndCountsItDenied() throws Exception {
        Limiter l = limiter();
        Target t = l.target(Api.class, method("search"));
        for (int i = 0; i < 3; i++) {
            assertFalse(l.admit(t, CALLER).toCompletableFuture().join().outcome().refused());
        }
        Decision fourth = l.admit(t, CALLER).toCompletableFuture().join();
        assertTrue(fourth.outcome().refused());
        assertEquals(Outcome.DENIED, fourth.outcome());
        assertEquals(3, calls(Api.class.getName() + "#search", "allowed"));
        assertEquals(1, calls(Api.class.getName() + "#search", "denied"));
    }

    @Test
    void reportModeLetsEveryCallThroughWithoutFieldsAndRecordsWhatEnforceWould() throws Exception {
        Limiter l = limiter(ThrottleSettings.MODE, "report");
        Target t = l.target(Api.class, method("search"));
        for (int i = 0; i < 5; i++) {
            Decision v = l.admit(t, CALLER).toCompletableFuture().join();
            assertFalse(v.outcome().refused(), "report mode refuses nothing");
            assertEquals(i < 3 ? Outcome.ALLOWED : Outcome.WOULD_DENY, v.outcome());
            assertEquals(i < 3, v.allowed(), "the decision is enforce mode's");
        }
        assertEquals(3, calls(Api.class.getName() + "#search", "allowed"));
        assertEquals(2, calls(Api.class.getName() + "#search", "would-deny"));
        assertEquals(0, calls(Api.class.getName() + "#search", "denied"));
        // a call let through in report mode recorded nothing: a minute later, the full limit again
        clock.advanceMillis(60_000);
        assertEquals(2, l.admit(t, CALLER).toCompletableFuture().join().remaining());
    }

    @Test
    void aTargetOverridesTheModeMostSpecificFirst() throws Exception {
        Limiter l = limiter(ThrottleSettings.MODE, "report", Api.class.getName() + "/export/Throttle/mode", "enforce");
        assertTrue(l.target(Api.class, method("search")).report());
        assertFalse(l.target(Api.class, method("export")).report());
        Limiter m = limiter("Throttle/mode", "report", Api.class.getName() + "/Throttle/mode", "enforce");
        assertFalse(m.target(Api.class, method("search")).report());
    }

    @Test
    void anUnknownModeFailsStartUpNamingTheKey() {
        InvalidThrottleException e = assertThrows(InvalidThrottleException.class,
                () -> ThrottleSettings.read(TestConfig.of(ThrottleSettings.MODE, "shadow")));
        assertTrue(e.getMessage().contains("throttle.mode=shadow"), e.getMessage());
        String key = Api.class.getName() + "/search/Throttle/mode";
        e = assertThrows(InvalidThrottleException.class, () -> limiter(key, "warn").target(Api.class, method("search")));
        assertTrue(e.getMessage().contains(key + "=warn"), e.getMessage());
    }

    @Test
    void theReportLogSaysAtMostOnceAMinuteHowManyCallsWouldHaveBeenDenied() {
        ReportLog log = new ReportLog("exports", clock);
        assertNotNull(log.wouldDeny(), "the first one is told at once");
        assertNull(log.wouldDeny());
        clock.advanceMillis(30_000);
        assertNull(log.wouldDeny());
        clock.advanceMillis(30_000);
        String line = log.wouldDeny();
        assertEquals("Throttle report mode: 3 calls to bucket exports would have been denied in the last minute", line);
    }

    @Test
    void aNamedMetricsBackendThatIsNotThereIsRefused() {
        assertTrue(MetricsBackends.select("otel", type -> Optional.empty()).isEmpty());
        assertEquals("none", MetricsBackends.select("auto", type -> Optional.empty()).orElseThrow().name());
        assertEquals("micrometer", MetricsBackends.select("auto", type -> Optional.of(() -> registry)).orElseThrow().name());
    }

    @Test
    void storeCallsAreTimedByStoreAndOutcome() throws Exception {
        Limiter l = limiter();
        l.admit(l.target(Api.class, method("search")), CALLER).toCompletableFuture().join();
        var timer = registry.find(Meters.STORE_CALLS).tags("store", "memory", "outcome", "success").timer();
        assertNotNull(timer);
        assertEquals(1, timer.count());
    }

    private static final Caller CALLER = TestCaller.of(null, "10.0.0.9");
}
