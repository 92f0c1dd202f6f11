package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.GiveBackContract;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.MixedCallContract;
import io.github.throttle.engine.SeatContract;
import io.github.throttle.engine.SharedCountContract;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreContract;
import io.github.throttle.engine.StoreFixture;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.WindowContract;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.RedisClusterProcess;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The semantic table, and what a cluster adds: keys on several primaries, per-node scripts, slot migration. */
public class RedisClusterStoreTest extends StoreContract {

    /** Kept after a key's last weight leaves its windows. */
    static final long SLACK = 120_000;

    /** Set by {@link #startCluster()}, or by a subclass's method of that name, which hides it. */
    static RedisClusterProcess cluster;
    static RedisClusterStore store;

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterProcess.start();
        // the tests' clock is not Redis's: keys live SLACK longer, so that a slow machine never sees a key of a
        // millisecond window expire between two calls of one test
        store = new RedisClusterStore(RedisUris.parse(cluster.seeds(), true), Duration.ofSeconds(5), RedisClusterStoreTest.SLACK);
        store.prepare();
    }

    @AfterAll
    static void stopCluster() {
        if (store != null) {
            store.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    public Store store() {
        return store;
    }

    /** Keys of one hash slot (one hash tag): the store decides a call of them in one script run, as one. */
    @Override
    public String[] freshKeys(int n) {
        String tag = "{" + KEYS.incrementAndGet() + "-" + System.nanoTime() + "}";
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            keys[i] = freshKey() + tag;
        }
        assertEquals(SlotHash.getSlot(keys[0]), SlotHash.getSlot(keys[n - 1]));
        return keys;
    }

    /**
     * The contract again, each call's identities in slots of different primaries: decided part by part, a denied
     * call's recorded parts refunded. Calls that wait are not among them (see the test below).
     */
    @Nested
    class KeysAcrossSlots implements WindowContract, GiveBackContract, SeatContract, SharedCountContract, MixedCallContract {

        @Override
        public Store store() {
            return store;
        }

        /** The enclosing test's keys (under the ACL user's prefix where it has one). */
        @Override
        public String freshKey() {
            return RedisClusterStoreTest.this.freshKey();
        }

        @Override
        public String[] freshKeys(int n) {
            String[] keys = new String[n];
            for (int i = 0; i < n; i++) {
                keys[i] = freshKeyOn(i % cluster.size());
            }
            return keys;
        }
    }

    /**
     * What a cluster cannot do: a call whose keys span several slots is decided part by part, so it does not wait:
     * it is denied at once (its parts that recorded refunded) where keys of one slot would be reserved.
     */
    @Test
    void aCallWhoseKeysSpanSeveralSlotsIsDeniedRatherThanReserved() {
        Limit perSecond = Limit.fixed(1, SECOND);
        String ip = freshKeyOn(0);
        String user = freshKeyOn(1);
        assertTrue(call(SIX_PM, ip, perSecond).allowed());
        StoreReply across = send(StoreCall.builder(SIX_PM + 100, true).maxWait(5 * SECOND)
                .add(ip, perSecond, 1, 0).add(user, perSecond, 1, 0).build()).reply();
        assertFalse(across.allowed(), () -> "denied rather than reserved: " + across);
        assertEquals(0, across.delayMillis());
        StoreFixture.figures(across, 0, 0, 900, true);
        // the user's part recorded, then was refunded: its figures are those before the call
        StoreFixture.figures(across, 1, 1, 0, false);
        assertEquals(1, peek(SIX_PM + 200, user, perSecond).remaining(), "nothing left recorded for the user");
        assertTrue(call(SIX_PM + SECOND, ip, perSecond).allowed(), "nothing reserved for the address");

        String[] oneSlot = freshKeys(2);
        assertTrue(call(SIX_PM, oneSlot[0], perSecond).allowed());
        StoreReply reserved = send(StoreCall.builder(SIX_PM + 100, true).maxWait(5 * SECOND)
                .add(oneSlot[0], perSecond, 1, 0).add(oneSlot[1], perSecond, 1, 0).build()).reply();
        assertTrue(reserved.allowed(), "keys of one slot: reserved");
        assertEquals(900, reserved.delayMillis());
    }

    /**
     * A call spanning two slots, one of which the script cannot decide (its key holds a string), is answered with
     * that failure at once, whatever its weight: a free call (weight 0) too, whose figures of the failed slot are
     * missing. Its caller never waits for the timeout, and the cause is the real one.
     */
    @Test
    void aCallAcrossSlotsWithOneFailedSlotFailsWithItsCauseAtOnce() throws Exception {
        Limit perSecond = Limit.fixed(5, SECOND);
        String fine = freshKeyOn(0);
        String broken = freshKeyOn(1);
        cluster.node(cluster.owner(SlotHash.getSlot(broken))).set(broken, "not a hash");
        for (long weight : new long[] {0, 1}) {
            StoreCall across = StoreCall.builder(SIX_PM, weight > 0).add(fine, perSecond, weight, 0).add(broken, perSecond, weight, 1).build();
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> store.decide(across).toCompletableFuture().get(60, TimeUnit.SECONDS), "weight " + weight);
            assertInstanceOf(SlidingWindowScript.ScriptFailure.class, failed.getCause(), "weight " + weight);
        }
        assertEquals(5, peek(SIX_PM + 100, fine, perSecond).remaining(), "nothing left recorded on the slot that answered");
    }

    /**
     * A call over two slots, one of which denies: the denial is the answer, even while the refund of the part that
     * recorded is held (its node takes no script for now). The refund is not waited for, so the caller never meets
     * the timeout and the failure policy ({@code allow} would let through a call Redis denied).
     */
    @Test
    void aCrossSlotDenialIsAnsweredWhileItsRefundIsHeld() throws Exception {
        Limit perHour = Limit.fixed(1, 60 * MINUTE);
        String recorded = freshKeyOn(0);
        String full = freshKeyOn(1);
        int recordedOn = cluster.owner(SlotHash.getSlot(recorded));
        int fullOn = cluster.owner(SlotHash.getSlot(full));
        assertTrue(call(SIX_PM, full, perHour).allowed(), "the second key's one call of the hour");
        Decider decider = new Decider(store, new MutableClock(SIX_PM), true, Duration.ofSeconds(2), FailurePolicy.ALLOW,
                Duration.ofMillis(1));
        StoreCall across = StoreCall.builder(SIX_PM + SECOND, true).add(recorded, perHour, 1, 0).add(full, perHour, 1, 1).build();
        cluster.process(fullOn).pauseWrites(Duration.ofMinutes(1));
        java.util.concurrent.CompletableFuture<Decision> answer;
        try {
            answer = decider.ask(across, List.of(perHour, perHour)).toCompletableFuture();
            // the part on the first key is recorded, the part on the second held
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (cluster.node(recordedOn).exists(recorded) == 0) {
                assertTrue(System.nanoTime() < deadline, "the first part was not recorded within 30 s");
                Thread.sleep(10);
            }
            cluster.process(recordedOn).pauseWrites(Duration.ofMinutes(1));
        } finally {
            cluster.process(fullOn).unpause();
        }
        try {
            Decision d = answer.get(60, TimeUnit.SECONDS);
            assertFalse(d.isUnmetered(), "Redis's answer, not the failure policy: " + d);
            assertFalse(d.allowed(), "denied by the second key: " + d);
        } finally {
            cluster.process(recordedOn).unpause();
        }
        // once the refund is through, nothing stays recorded on the first key
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (peek(SIX_PM + 2 * SECOND, recorded, perHour).remaining() != 1) {
            assertTrue(System.nanoTime() < deadline, "the refund was not taken within 30 s");
            Thread.sleep(10);
        }
    }

    /** A fresh key served by primary {@code node}. */
    private String freshKeyOn(int node) {
        while (true) {
            String key = freshKey();
            if (cluster.owner(SlotHash.getSlot(key)) == node) {
                return key;
            }
        }
    }

    @Test
    void identitiesSpreadOverAllThreePrimaries() {
        Limit limit = Limit.fixed(5, MINUTE);
        Set<Integer> holders = new TreeSet<>();
        for (int i = 0; i < 30; i++) {
            String key = freshKey();
            assertTrue(call(SIX_PM, key, limit).allowed());
            int slot = SlotHash.getSlot(key);
            assertEquals(slot, cluster.node(0).clusterKeyslot(key).intValue(), "CLUSTER KEYSLOT agrees");
            int owner = cluster.owner(slot);
            assertEquals(1, cluster.node(owner).exists(key).longValue(), key + " on the primary serving slot " + slot);
            holders.add(owner);
        }
        assertEquals(Set.of(0, 1, 2), holders);
    }

    @Test
    void aCallDeniedOnOnePrimaryLeavesNothingRecordedOnAnother() {
        Limit perMinute = Limit.fixed(20, MINUTE);
        Limit perHour = Limit.of(100, HOUR, MINUTE);
        String ip = freshKeyOn(0);
        String user = freshKeyOn(1);
        // the address has used 30 of its hour, 10 of this minute; the user has spent this minute
        for (int m = 0; m < 3; m++) {
            assertTrue(call(SIX_PM + m * MINUTE, 10, new String[] {ip}, perMinute, perHour).allowed());
        }
        long now = SIX_PM + 2 * MINUTE + SECOND;
        assertTrue(call(now, 20, new String[] {user}, perMinute, perHour).allowed());
        for (int i = 0; i < 5; i++) {
            // a new sub-bucket each time: the refund must find the one it was recorded in
            Decision d = call(now + i * MINUTE / 10, 1, new String[] {ip, user}, perMinute, perHour);
            assertFalse(d.allowed());
            assertEquals(0, d.quotas().get(0).remaining());
            assertTrue(d.quotas().get(0).violated());
            // the hour: the user has 80 left, the address 70 (as before the call, not 69)
            assertEquals(70, d.quotas().get(1).remaining());
        }
        Decision ipAlone = peek(now + MINUTE / 2, ip, perMinute, perHour);
        assertEquals(10, ipAlone.quotas().get(0).remaining());
        assertEquals(70, ipAlone.quotas().get(1).remaining());
        assertEquals(9, call(now + MINUTE / 2, ip, perMinute, perHour).quotas().get(0).remaining());
    }

    @Test
    void aCallAllowedEverywhereIsRecordedOnEveryPrimary() {
        Limit limit = Limit.fixed(3, MINUTE);
        String[] keys = {freshKeyOn(0), freshKeyOn(1), freshKeyOn(2)};
        for (int i = 0; i < 3; i++) {
            Decision d = call(SIX_PM + i, 1, keys, limit);
            assertTrue(d.allowed());
            assertEquals(2 - i, d.remaining());
        }
        assertFalse(call(SIX_PM + 3, 1, keys, limit).allowed());
        for (int n = 0; n < 3; n++) {
            assertEquals(0, peek(SIX_PM + 4, keys[n], limit).remaining());
        }
    }

    @Test
    void identitiesOnTwoPrimariesRacingGetExactlyTheTighterLimitAndRefundsLeaveExactCounts() throws Exception {
        Limit limit = Limit.fixed(50, HOUR);
        Limit loose = Limit.fixed(1000, HOUR);
        String user = freshKeyOn(1);
        String ip = freshKeyOn(2);
        // the user's quota runs out long before the address's: every denial comes from the user's primary
        AtomicInteger allowed = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        race(64, 10, (t, i) -> {
            StoreCall c = StoreCall.builder(SIX_PM + i, true).add(user, limit, 1, 0).add(ip, loose, 1, 1).build();
            if (store.decide(c).toCompletableFuture().join().allowed()) {
                allowed.incrementAndGet();
            }
        }, errors);
        assertTrue(errors.isEmpty(), () -> "errors: " + errors);
        assertEquals(50, allowed.get());
        assertEquals(0, peek(SIX_PM + 20, user, limit).remaining());
        assertEquals(950, peek(SIX_PM + 20, ip, loose).remaining(), "every refund undid exactly its weight");
    }

    @Test
    void callsOverSeveralPrimariesAgreeWithTheEmbeddedStoreOnEveryCount() {
        long seed = Long.getLong("throttle.seed", System.nanoTime());
        Random rnd = new Random(seed);
        String[] ids = {freshKeyOn(0), freshKeyOn(0), freshKeyOn(1), freshKeyOn(1), freshKeyOn(2), freshKeyOn(2)};
        Limit[] plan = {Limit.of(4, 2 * SECOND, 200), Limit.of(12, 20 * SECOND, SECOND), Limit.fixed(40, MINUTE)};
        MutableClock clock = new MutableClock(SIX_PM);
        int denied = 0;
        try (MemoryStore reference = new MemoryStore(clock, HOUR)) {
            long now = SIX_PM;
            for (int n = 0; n < 1500; n++) {
                now += rnd.nextInt(4) == 0 ? rnd.nextInt(3000) : rnd.nextInt(50);
                clock.set(now);
                StoreCall.Builder b = StoreCall.builder(now, rnd.nextInt(20) != 0);
                int first = rnd.nextInt(ids.length);
                int second = rnd.nextInt(ids.length);
                int third = rnd.nextInt(ids.length);
                for (int k : new int[] {first, second, third}) {
                    for (int i = 0; i < plan.length; i++) {
                        b.add(ids[k], plan[i], 1 + rnd.nextInt(2), i);
                    }
                }
                StoreCall call = b.build();
                StoreReply expected = reference.decideNow(call);
                StoreReply actual = store.decide(call).toCompletableFuture().join();
                String where = "call " + n + " (seed " + seed + "): " + expected + " vs " + actual;
                assertEquals(expected.allowed(), actual.allowed(), where);
                for (int p = 0; p < call.pairCount(); p++) {
                    assertEquals(expected.remaining(p), actual.remaining(p), where);
                    assertEquals(expected.violated(p), actual.violated(p), where);
                    if (expected.violated(p)) {
                        assertEquals(expected.waitMillis(p), actual.waitMillis(p), "retry wait, " + where);
                    }
                }
                denied += expected.allowed() ? 0 : 1;
            }
        }
        assertTrue(denied > 100, "denied " + denied);
    }

    @Test
    void afterScriptFlushOnOnePrimaryCallsStillSucceed() {
        Limit limit = Limit.fixed(5, MINUTE);
        for (int node = 0; node < cluster.size(); node++) {
            String key = freshKeyOn(node);
            String other = freshKeyOn((node + 1) % cluster.size());
            assertTrue(call(SIX_PM, key, limit).allowed());
            assertEquals("OK", cluster.node(node).scriptFlush());
            assertFalse(cluster.node(node).scriptExists(SlidingWindowScript.SHA1).get(0));
            assertEquals(3, call(SIX_PM + 1, key, limit).remaining());
            assertTrue(cluster.node(node).scriptExists(SlidingWindowScript.SHA1).get(0), "reloaded on node " + node);
            // and a call over two primaries, one of them without the script
            cluster.node(node).scriptFlush();
            assertEquals(2, call(SIX_PM + 2, 1, new String[] {key, other}, limit).remaining());
        }
    }

    @Test
    void resetForgetsKeysOnEveryPrimary() {
        Limit limit = Limit.fixed(1, MINUTE);
        String[] keys = {freshKeyOn(0), freshKeyOn(1), freshKeyOn(2)};
        assertTrue(call(SIX_PM, 1, keys, limit).allowed());
        store.reset(keys).toCompletableFuture().join();
        assertTrue(call(SIX_PM + 1, 1, keys, limit).allowed());
    }

    @Test
    void aSlotMovedWhileCallsRunKeepsItsCounts() throws Exception {
        Limit limit = Limit.fixed(1_000_000, HOUR);
        Limit sliding = Limit.of(1_000_000, HOUR, MINUTE);
        String key = freshKeyOn(0);
        String elsewhere = freshKeyOn(1);
        int slot = SlotHash.getSlot(key);
        int from = cluster.owner(slot);
        int to = 2;
        AtomicLong done = new AtomicLong();
        // one permit per call made: what the migration steps wait on
        Semaphore progress = new Semaphore(0);
        AtomicInteger allowed = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            boolean both = t % 2 == 0;
            running.add(pool.submit(() -> {
                int i = 0;
                while (!stop.get()) {
                    try {
                        String[] keys = both ? new String[] {key, elsewhere} : new String[] {key};
                        if (call(SIX_PM + (i++ % 1000), 1, keys, limit, sliding).allowed()) {
                            allowed.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        errors.incrementAndGet();
                        failures.add(e);
                    }
                    done.incrementAndGet();
                    progress.release();
                }
            }));
        }
        try {
            // let a few hundred calls meet each state of the slot: before, importing/migrating, moved
            Runnable between = () -> awaitCalls(progress, 300);
            between.run();
            cluster.migrate(slot, from, to, between);
            awaitCalls(progress, 1000);
        } finally {
            stop.set(true);
            for (Future<?> f : running) {
                f.get(30, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
        }
        System.out.println("slot migration: " + done.get() + " calls, " + allowed.get() + " allowed, "
                + errors.get() + " errors");
        assertEquals(0, errors.get(), () -> "first errors: " + failures.stream().limit(3).toList());
        assertEquals(to, cluster.owner(slot));
        assertNotEquals(from, to);
        assertEquals(1, cluster.node(to).exists(key).longValue(), "the bucket moved with its slot");
        assertEquals(0, cluster.node(from).clusterCountKeysInSlot(slot).longValue());
        Decision after = peek(SIX_PM + 2000, key, limit, sliding);
        assertEquals(1_000_000 - allowed.get(), after.quotas().get(0).remaining(), "no count lost or doubled");
        assertEquals(1_000_000 - allowed.get(), after.quotas().get(1).remaining());
    }

    /** Waits (at most 30 s, which only stalled calls take) until the workers have made {@code more} calls from now on. */
    private static void awaitCalls(Semaphore calls, int more) {
        calls.drainPermits();
        try {
            if (!calls.tryAcquire(more, 30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("calls stalled: fewer than " + more + " in 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
