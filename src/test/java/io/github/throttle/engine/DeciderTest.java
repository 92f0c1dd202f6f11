package io.github.throttle.engine;

import io.github.throttle.Decision;
import io.github.throttle.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        public CompletionStage<Void> giveBack(StoreCall call, long[] subBuckets) {
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
        Decider d = new Decider(store, new MutableClock(0), false, Duration.ofMillis(50), false, Duration.ofSeconds(1));
        Decision decision = d.decide(call, List.of(limit)).toCompletableFuture().join();
        assertTrue(decision.allowed());
        assertTrue(decision.isUnmetered());
    }

    @Test
    void withDenyAFailedStoreDeniesAsUnavailable() {
        UnreachableStore store = new UnreachableStore();
        Decider d = new Decider(store, new MutableClock(0), false, Duration.ofMillis(50), true, Duration.ofSeconds(1));
        Decision decision = d.decide(call, List.of(limit)).toCompletableFuture().join();
        assertFalse(decision.allowed());
        assertTrue(decision.isUnmetered());
        assertEquals(1000, decision.retryAfterMillis());
    }

    @Test
    void aStoreThatDoesNotAnswerIsCutOffAtTheTimeout() {
        UnreachableStore store = new UnreachableStore();
        store.hang = true;
        Decider d = new Decider(store, new MutableClock(0), false, Duration.ofMillis(30), false, Duration.ofSeconds(1));
        Decision decision = d.decide(call, List.of(limit)).toCompletableFuture().join();
        assertTrue(decision.isUnmetered());
    }

    @Test
    void afterAFailureTheStoreIsLeftAloneForTheOpenPeriodThenProbed() {
        UnreachableStore store = new UnreachableStore();
        MutableClock clock = new MutableClock(0);
        Decider d = new Decider(store, clock, false, Duration.ofMillis(50), false, Duration.ofSeconds(1));
        d.decide(call, List.of(limit)).toCompletableFuture().join();
        for (int i = 0; i < 100; i++) {
            d.decide(call, List.of(limit)).toCompletableFuture().join();
        }
        assertEquals(1, store.calls.get(), "no store call while open");
        clock.advanceMillis(1000);
        store.answer = new StoreReply(true, new long[] {9, 1000, 0});
        Decision probe = d.decide(call, List.of(limit)).toCompletableFuture().join();
        assertFalse(probe.isUnmetered());
        assertEquals(9, probe.remaining());
        assertEquals(2, store.calls.get());
        d.decide(call, List.of(limit)).toCompletableFuture().join();
        assertEquals(3, store.calls.get(), "closed again: every call asks the store");
    }

    private final StoreCall probe = StoreCall.builder(-1, true).add("probe", limit, 1, 0).build();

    @Test
    void onceTheReadinessProbeIsAnsweredTheNextCallIsDecidedByTheStoreUnderEitherPolicy() {
        for (boolean deny : new boolean[] {true, false}) {
            UnreachableStore store = new UnreachableStore();
            // an open period that the clock never leaves: only the probe can end the episode
            Decider d = new Decider(store, new MutableClock(0), false, Duration.ofSeconds(2), deny, Duration.ofHours(1));
            Decision failed = d.decide(call, List.of(limit)).toCompletableFuture().join();
            assertTrue(failed.isUnmetered());
            assertFalse(d.reachable(probe).toCompletableFuture().join(), "the store still fails");
            assertTrue(d.decide(call, List.of(limit)).toCompletableFuture().join().isUnmetered(), "still in the episode");

            store.answer = new StoreReply(true, new long[] {9, 1000, 0});
            assertTrue(d.reachable(probe).toCompletableFuture().join());
            int before = store.calls.get();
            Decision next = d.decide(call, List.of(limit)).toCompletableFuture().join();
            assertEquals(before + 1, store.calls.get(), "the store was asked");
            assertFalse(next.isUnmetered(), "deny=" + deny);
            assertEquals(9, next.remaining());
        }
    }

    @Test
    void aReadinessProbeThatFailsStartsAFailureEpisode() {
        UnreachableStore store = new UnreachableStore();
        Decider d = new Decider(store, new MutableClock(0), false, Duration.ofSeconds(2), true, Duration.ofHours(1));
        assertFalse(d.reachable(probe).toCompletableFuture().join());
        int asked = store.calls.get();
        Decision next = d.decide(call, List.of(limit)).toCompletableFuture().join();
        assertFalse(next.allowed());
        assertTrue(next.isUnmetered());
        assertEquals(asked, store.calls.get(), "the open period keeps calls off the failed store");
    }
}
