package io.github.throttle.engine;

import io.github.throttle.CallEnding;
import java.util.EnumSet;
import io.github.throttle.Decision;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the store contracts ({@link WindowContract}, {@link GiveBackContract}, {@link SeatContract},
 * {@link ReservationContract}, {@link SharedCountContract}, {@link MixedCallContract}) need of a store's test class:
 * the store, fresh keys, and calls made with the client clock (each call carries its time, so the tests drive it
 * exactly, whatever the store's own clock says).
 */
public interface StoreFixture {

    long SECOND = 1000;
    long MINUTE = 60 * SECOND;
    long HOUR = 60 * MINUTE;
    /** 2026-11-22T18:00:00Z: the seed's examples speak of 6 PM. */
    long SIX_PM = Instant.parse("2026-11-22T18:00:00Z").toEpochMilli();

    /** Numbers fresh keys, for every test class of the JVM. */
    AtomicLong KEYS = new AtomicLong();

    Store store();

    /** A key no other test uses. */
    default String freshKey() {
        return "test:" + getClass().getSimpleName() + ":" + KEYS.incrementAndGet() + ":" + System.nanoTime();
    }

    /**
     * Keys no other test uses, for the identities of one call that the store must decide as one (a Redis Cluster:
     * keys of one hash slot, the only calls it decides in one script run).
     */
    default String[] freshKeys(int n) {
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            keys[i] = freshKey();
        }
        return keys;
    }

    default Decision call(long at, long weight, String[] keys, Limit... limits) {
        return decide(at, weight, true, keys, limits);
    }

    default Decision call(long at, String key, Limit... limits) {
        return decide(at, 1, true, new String[] {key}, limits);
    }

    default Decision peek(long at, String key, Limit... limits) {
        return decide(at, 1, false, new String[] {key}, limits);
    }

    default Decision decide(long at, long weight, boolean record, String[] keys, Limit... limits) {
        StoreCall.Builder b = StoreCall.builder(at, record);
        for (String key : keys) {
            for (int i = 0; i < limits.length; i++) {
                b.add(key, limits[i], weight, i);
            }
        }
        StoreCall call = b.build();
        StoreReply reply = store().decide(call).toCompletableFuture().join();
        return Decider.decision(reply, call, List.of(limits));
    }

    /** An allowed or denied call whose weight may be given back, as the store answered it. */
    record Charge(StoreCall call, StoreReply reply) {
        public boolean allowed() {
            return reply.allowed();
        }
    }

    /** Decides {@code call} as it is built, keeping what a give-back or a release needs. */
    default Charge send(StoreCall call) {
        return new Charge(call, store().decide(call).toCompletableFuture().join());
    }

    default Charge charge(long at, long weight, String key, Limit... limits) {
        StoreCall.Builder b = StoreCall.builder(at, true);
        for (int i = 0; i < limits.length; i++) {
            b.add(key, limits[i], weight, i, true);
        }
        return send(b.build());
    }

    /** Gives back the weight of an allowed call and releases its seats, as its caller does. */
    default void giveBack(Charge c) {
        assertTrue(c.allowed(), "only an allowed call recorded weight");
        giveBack(Took.of(c.call(), c.reply()).only(EnumSet.of(CallEnding.Part.WEIGHT, CallEnding.Part.SEATS)));
    }

    /** Undoes an allowed call: everything it took comes back, as for a call that never ran. */
    default void undo(Charge c) {
        assertTrue(c.allowed(), "only an allowed call recorded weight");
        giveBack(Took.of(c.call(), c.reply()));
    }

    /** Gives {@code took} back through the store. */
    private void giveBack(Took took) {
        if (!took.isEmpty()) {
            store().giveBack(took).toCompletableFuture().join();
        }
    }

    /** Releases the seats of an allowed call, as a call that ends does; its rate weight stays counted. */
    default void release(Charge c) {
        assertTrue(c.allowed(), "only an allowed call holds seats");
        giveBack(Took.of(c.call(), c.reply()).only(EnumSet.of(CallEnding.Part.SEATS)));
    }

    /** A recorded call of weight {@code w} on every limit of {@code key}, that may wait {@code maxWait} ms. */
    default Charge waiting(long at, long maxWait, long w, String key, Limit... limits) {
        StoreCall.Builder b = StoreCall.builder(at, true).maxWait(maxWait);
        for (int i = 0; i < limits.length; i++) {
            b.add(key, limits[i], w, i, true);
        }
        return send(b.build());
    }

    /** Asserts a pair's figures: remaining, wait, violated. */
    static void figures(StoreReply r, int pair, long remaining, long wait, boolean violated) {
        assertEquals(remaining, r.remaining(pair), () -> "remaining of pair " + pair + ": " + r);
        assertEquals(wait, r.waitMillis(pair), () -> "wait of pair " + pair + ": " + r);
        assertEquals(violated, r.violated(pair), () -> "violated pair " + pair + ": " + r);
    }

    /** The decision of a charge, for these limits (in limit index order). */
    default Decision decision(Charge c, Limit... limits) {
        return Decider.decision(c.reply(), c.call(), List.of(limits));
    }

    /** One step of a racing thread: its {@code i}-th call on thread {@code t}. */
    interface Step {
        void run(int t, int i) throws Exception;
    }

    /** Runs {@code perThread} steps on each of {@code threads} threads, all started at once; failures go to {@code errors}. */
    default void race(int threads, int perThread, Step step, ConcurrentLinkedQueue<Throwable> errors) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            Future<?>[] fs = new Future<?>[threads];
            for (int t = 0; t < threads; t++) {
                int thread = t;
                fs[t] = pool.submit(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < perThread; i++) {
                            step.run(thread, i);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                    return null;
                });
            }
            start.countDown();
            for (Future<?> f : fs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
