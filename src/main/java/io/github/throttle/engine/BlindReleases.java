package io.github.throttle.engine;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The seats of calls whose outcome is unknown (no reply: the store may have run them; or they failed part-way),
 * which nobody else will release: released blindly, by the lease id each call chose ({@link Took#unknown}), at once
 * and, while the store cannot be reached, again after each answer it gives, until the lease would have ended
 * anyway. Releasing a lease that is not held does nothing. Their weight in rate windows stays counted (the safe
 * side) until it leaves its windows.
 */
final class BlindReleases {

    /** The most releases kept while the store cannot take them; beyond, the oldest end with their lease. */
    private static final int MAX_KEPT = 10_000;

    private final Store store;
    private final InstantSource clock;
    private final Duration timeout;
    private final ConcurrentLinkedQueue<Owed> owed = new ConcurrentLinkedQueue<>();
    /** Whether releases are being sent. */
    private final AtomicBoolean sending = new AtomicBoolean();

    /** The seats of one call, to release until {@code until}, when their lease ends anyway. */
    private record Owed(Took seats, long until) {
    }

    BlindReleases(Store store, InstantSource clock, Duration timeout) {
        this.store = store;
        this.clock = clock;
        this.timeout = timeout;
    }

    /** Notes a call whose outcome is unknown and sends the release of its seats, if it may hold any. */
    void owe(StoreCall call) {
        Took seats = Took.unknown(call);
        if (seats.isEmpty()) {
            return;
        }
        long lease = 0;
        for (int p = 0; p < call.pairCount(); p++) {
            if (call.limit(p).inFlight()) {
                lease = Math.max(lease, call.limit(p).durationMillis());
            }
        }
        if (owed.size() >= MAX_KEPT) {
            owed.poll();
        }
        owed.add(new Owed(seats, clock.millis() + lease));
        retry();
    }

    /** Sends the releases still owed, one pass at a time; one the store takes is done, one past its lease too. */
    void retry() {
        if (owed.isEmpty() || !sending.compareAndSet(false, true)) {
            return;
        }
        long now = clock.millis();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (Owed o : owed) {
            if (o.until() <= now) {
                owed.remove(o);
                continue;
            }
            CompletableFuture<Void> release;
            try {
                release = store.giveBack(o.seats()).toCompletableFuture().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                release = CompletableFuture.failedFuture(e);
            }
            sent.add(release.thenRun(() -> owed.remove(o)));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).whenComplete((ok, failed) -> sending.set(false));
    }
}
