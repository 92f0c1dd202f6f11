package io.github.throttle.engine;

import io.github.throttle.Decision;
import io.github.throttle.Decisions;
import io.github.throttle.Policies;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The policies of a set of limits: made once, shared by every decision taken against them, scaled once for local counting. */
class LimitListTest {

    private final MutableClock clock = new MutableClock(1_763_800_000_000L);

    @Test
    void decisionsAgainstOneLimitListShareItsPolicies() {
        Limit second = Limit.fixed(10, 1000);
        Limit hour = Limit.of(240, 3_600_000, 60_000);
        LimitList limits = LimitList.of(List.of(second, hour));
        Decider d = new Decider(new MemoryStore(clock), clock, false, Duration.ofSeconds(1), FailurePolicy.ALLOW, Duration.ofSeconds(1));
        StoreCall call = StoreCall.builder(-1, true).add("k", second, 1, 0).add("k", hour, 1, 1).build();

        Decision a = d.ask(call, limits).toCompletableFuture().join();
        Decision b = d.ask(call, limits).toCompletableFuture().join();
        assertSame(limits.policies(), Decisions.policies(a));
        assertSame(Decisions.policies(a), Decisions.policies(b));
        assertEquals(List.of(new Policies.Policy("1s", 10, 1000, false), new Policies.Policy("1h", 240, 3_600_000, false)),
                limits.policies().list());
        int[] rendered = {0};
        String first = Decisions.policies(a).rendered(p -> "field " + ++rendered[0]);
        assertEquals(first, Decisions.policies(b).rendered(p -> "field " + ++rendered[0]));
        assertEquals(1, rendered[0], "rendered once");
    }

    @Test
    void localCountingScalesTheLimitsOnceAndShowsTheScaledPolicies() {
        Limit minute = Limit.fixed(10, 60_000);
        LimitList limits = LimitList.of(List.of(minute));
        FailurePolicy local = FailurePolicy.local(0.25, () -> new MemoryStore(clock));
        assertSame(limits.scaled(local), limits.scaled(local));
        assertEquals(List.of(new Policies.Policy("1m", 2, 60_000, false)), limits.scaled(local).policies().list());

        Decider d = new Decider(new DeciderTest.UnreachableStore(), clock, false, Duration.ofSeconds(1), local, Duration.ofHours(1));
        StoreCall call = StoreCall.builder(-1, true).add("k", minute, 1, 0).build();
        Decision a = d.ask(call, limits).toCompletableFuture().join();
        Decision b = d.ask(call, limits).toCompletableFuture().join();
        assertTrue(a.isLocal());
        assertSame(limits.scaled(local).policies(), Decisions.policies(a));
        assertSame(Decisions.policies(a), Decisions.policies(b));
    }

    @Test
    void twoLimitsOfOneNameAndWindowShowTheTighterOnesPolicy() {
        // two identities' limits named alike: the decision shows the one that binds, its own limit in its policy
        Limit loose = Limit.window(100, 60_000, 60_000, "api");
        Limit tight = Limit.window(2, 60_000, 60_000, "api");
        LimitList limits = LimitList.of(List.of(loose, tight));
        assertEquals(1, limits.policies().list().size());
        Decider d = new Decider(new MemoryStore(clock), clock, false, Duration.ofSeconds(1), FailurePolicy.ALLOW, Duration.ofSeconds(1));
        StoreCall call = StoreCall.builder(-1, true).add("a", loose, 1, 0).add("b", tight, 1, 1).build();
        Decision decided = d.ask(call, limits).toCompletableFuture().join();
        assertEquals(1, decided.quotas().size());
        assertEquals(2, decided.quotas().get(0).limit());
        assertEquals(List.of(new Policies.Policy("api", 2, 60_000, false)), Decisions.policies(decided).list());
    }

    @Test
    void aDecisionBuiltFromFiguresDescribesThem() {
        Decision d = Decision.of(true, List.of(new Decision.Quota("1s", 10, 1000, 2, 350, false)));
        assertEquals(List.of(new Policies.Policy("1s", 10, 1000, false)), Decisions.policies(d).list());
        assertTrue(Decisions.policies(Decision.unmetered()).list().isEmpty());
    }
}
