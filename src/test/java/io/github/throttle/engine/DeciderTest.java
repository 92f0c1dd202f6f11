package io.github.throttle.engine;

import io.github.throttle.Decision;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The failure policy and the open period, with a store that fails the way a dead Redis does. */
class DeciderTest {

    /** A store that never answers, or fails at once, as told; counts the calls it receives. */
    static final class UnreachableStore implements Store {
        @Override
        public String kind() {
            return "test";
        }

        final AtomicInteger calls = new AtomicInteger();
        volatile boolean hang;
        volatile StoreReply answer;

        @Override
        public CompletionStage<StoreReply> decide(StoreCall call) {
            calls.incrementAndGet();
            if (answer != null) {
                return CompletableFuture.completedFuture(answer);
            }
            return hang ? new CompletableFuture<>() : CompletableFuture.failedFuture(new java.io.IOException("connection refused"));
        }

        @Override
        public CompletionStage<Void> reset(String... keys) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Void> resetAll(KeyCodec codec) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Void> giveBack(Took took) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public String describe() {
            return "unreachable store";
        }

        @Override
        public void close() {
        }
    }

    private final Limit limit = Limit.fixed(10, 1000);
    private final StoreCall call = StoreCall.builder(-1, true).add("k", limit, 1, 0).build();

    @Test
    void withAllowAFailedStoreLetsCallsThroughUncounted() {
        UnreachableStore store = new UnreachableStore();
        Decider d = new Decider(store, new MutableClock(0), false, Duration.ofMillis(50), FailurePolicy.ALLOW, Duration.ofSeconds(1));
        Decision decision = d.ask(call, List.of(limit)).toCompletableFuture().join();
        assertTrue(decision.allowed());
        assertTrue(decision.isUnmetered());
    }

    @Test
    void withDenyAFailedStoreDeniesAsUnavailable() {
        UnreachableStore store = new UnreachableStore();
        Decider d = new Decider(store, new MutableClock(0), false, Duration.ofMillis(50), FailurePolicy.DENY, Duration.ofSeconds(1));
        Decision decision = d.ask(call, List.of(limit)).toCompletableFuture().join();
        assertFalse(decision.allowed());
        assertTrue(decision.isUnmetered());
        assertEquals(1000, decision.retryAfterMillis());
    }

    @Test
    void aStoreThatDoesNotAnswerIsCutOffAtTheTimeout() {
        UnreachableStore store = new UnreachableStore();
        store.hang = true;
        Decider d = new Decider(store, new MutableClock(0), false, Duration.ofMillis(30), FailurePolicy.ALLOW, Duration.ofSeconds(1));
        Decision decision = d.ask(call, List.of(limit)).toCompletableFuture().join();
        assertTrue(decision.isUnmetered());
    }

    @Test
    void afterAFailureTheStoreIsLeftAloneForTheOpenPeriodThenProbed() {
        UnreachableStore store = new UnreachableStore();
        MutableClock clock = new MutableClock(0);
        Decider d = new Decider(store, clock, false, Duration.ofMillis(50), FailurePolicy.ALLOW, Duration.ofSeconds(1));
        d.ask(call, List.of(limit)).toCompletableFuture().join();
        for (int i = 0; i < 100; i++) {
            d.ask(call, List.of(limit)).toCompletableFuture().join();
        }
        assertEquals(1, store.calls.get(), "no store call while open");
        clock.advanceMillis(1000);
        store.answer = new StoreReply(true, new long[] {9, 1000, 0});
        Decision probe = d.ask(call, List.of(limit)).toCompletableFuture().join();
        assertFalse(probe.isUnmetered());
        assertEquals(9, probe.remaining());
        assertEquals(2, store.calls.get());
        d.ask(call, List.of(limit)).toCompletableFuture().join();
        assertEquals(3, store.calls.get(), "closed again: every call asks the store");
    }

    private final StoreCall probe = StoreCall.builder(-1, true).add("probe", limit, 1, 0).build();

    @Test
    void onceTheReadinessProbeIsAnsweredTheNextCallIsDecidedByTheStoreUnderEitherPolicy() {
        for (boolean deny : new boolean[] {true, false}) {
            UnreachableStore store = new UnreachableStore();
            // an open period that the clock never leaves: only the probe can end the episode
            Decider d = new Decider(store, new MutableClock(0), false, Duration.ofSeconds(2), deny ? FailurePolicy.DENY : FailurePolicy.ALLOW, Duration.ofHours(1));
            Decision failed = d.ask(call, List.of(limit)).toCompletableFuture().join();
            assertTrue(failed.isUnmetered());
            assertFalse(d.reachable(probe).toCompletableFuture().join(), "the store still fails");
            assertTrue(d.ask(call, List.of(limit)).toCompletableFuture().join().isUnmetered(), "still in the episode");

            store.answer = new StoreReply(true, new long[] {9, 1000, 0});
            assertTrue(d.reachable(probe).toCompletableFuture().join());
            int before = store.calls.get();
            Decision next = d.ask(call, List.of(limit)).toCompletableFuture().join();
            assertEquals(before + 1, store.calls.get(), "the store was asked");
            assertFalse(next.isUnmetered(), "deny=" + deny);
            assertEquals(9, next.remaining());
        }
    }

    @Test
    void aReadinessProbeThatFailsStartsAFailureEpisode() {
        UnreachableStore store = new UnreachableStore();
        Decider d = new Decider(store, new MutableClock(0), false, Duration.ofSeconds(2), FailurePolicy.DENY, Duration.ofHours(1));
        assertFalse(d.reachable(probe).toCompletableFuture().join());
        int asked = store.calls.get();
        Decision next = d.ask(call, List.of(limit)).toCompletableFuture().join();
        assertFalse(next.allowed());
        assertTrue(next.isUnmetered());
        assertEquals(asked, store.calls.get(), "the open period keeps calls off the failed store");
    }

    /**
     * {@code local}: while the store fails, this instance decides in a store of its own, each limit scaled by the
     * share (at least 1), with the usual figures; a call heavier than a scaled limit is denied, not refused as
     * invalid. Once the store answers again it decides, and a later episode starts with empty local counts.
     */
    @Test
    void withLocalAFailedStoreIsStoodInForByALocalOneWithScaledLimitsUntilItAnswersAgain() {
        UnreachableStore store = new UnreachableStore();
        MutableClock clock = new MutableClock(1_763_800_000_000L);
        Decider d = new Decider(store, clock, false, Duration.ofSeconds(2),
                FailurePolicy.local(0.25, () -> new MemoryStore(clock)), Duration.ofHours(1));
        assertFalse(d.deniesOnFailure());
        Limit ten = Limit.fixed(10, 60_000);
        Limit three = Limit.fixed(3, 60_000);
        StoreCall k = StoreCall.builder(-1, true).add("k", ten, 1, 0).build();

        Decision first = d.ask(k, List.of(ten)).toCompletableFuture().join();
        assertTrue(first.allowed());
        assertTrue(first.isLocal());
        assertFalse(first.isUnmetered());
        assertEquals(2, first.quotas().get(0).limit(), "max(1, floor(10 x 0.25))");
        assertEquals(1, first.remaining());
        assertTrue(d.ask(k, List.of(ten)).toCompletableFuture().join().allowed());
        Decision third = d.ask(k, List.of(ten)).toCompletableFuture().join();
        assertFalse(third.allowed());
        assertTrue(third.isLocal());
        assertEquals(60_000 - clock.millis() % 60_000, third.retryAfterMillis(), "until the window ends");
        assertEquals(1, store.calls.get(), "the open period keeps calls off the failed store");

        // per identity; a limit scaled below 1 keeps 1; a call heavier than the scaled limit is denied
        StoreCall other = StoreCall.builder(-1, true).add("other", three, 1, 0).build();
        assertTrue(d.ask(other, List.of(three)).toCompletableFuture().join().allowed());
        assertFalse(d.ask(other, List.of(three)).toCompletableFuture().join().allowed());
        StoreCall heavy = StoreCall.builder(-1, true).add("heavy", ten, 3, 0).build();
        Decision tooHeavy = d.ask(heavy, List.of(ten)).toCompletableFuture().join();
        assertFalse(tooHeavy.allowed());
        assertTrue(tooHeavy.isLocal());

        store.answer = new StoreReply(true, new long[] {9, 1000, 0});
        assertTrue(d.reachable(probe).toCompletableFuture().join());
        int asked = store.calls.get();
        Decision back = d.ask(k, List.of(ten)).toCompletableFuture().join();
        assertEquals(asked + 1, store.calls.get(), "the store decides again");
        assertFalse(back.isLocal());
        assertEquals(9, back.remaining());

        store.answer = null;
        assertFalse(d.reachable(probe).toCompletableFuture().join(), "a new episode");
        Decision fresh = d.ask(k, List.of(ten)).toCompletableFuture().join();
        assertTrue(fresh.isLocal());
        assertEquals(1, fresh.remaining(), "the local counts of the earlier episode were dropped");
    }

    @Test
    void aLocalShareOutsideZeroToOneIsRefused() {
        for (double share : new double[] {0, -0.5, 1.01, Double.NaN}) {
            assertThrows(IllegalArgumentException.class, () -> FailurePolicy.local(share, () -> null), "share " + share);
        }
    }
}
