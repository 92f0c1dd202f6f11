package io.github.throttle.bench;

import io.github.throttle.Decision;
import io.github.throttle.bench.Windows.Window;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.Store;
import io.github.throttle.engine.StoreCall;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Throttle's engine as an annotated method's path drives it: the key of a bucket and an identity, the
 * target's store call (every limit of one bucket, weight 1, put together as {@code Target.storeCall} does),
 * then the decider. With {@link MemoryAdapter} and {@link RedisAdapter}, the only classes of the benchmark that name
 * the library's internal classes.
 */
final class Engine {

    private static final KeyCodec CODEC = new KeyCodec("throttle");

    private final Decider decider;

    /** @param clientTime whether calls carry the caller's time ({@code throttle.time-source=client}) */
    Engine(Store store, boolean clientTime, Duration timeout) {
        this.decider = new Decider(store, InstantSource.system(), clientTime, timeout, FailurePolicy.ALLOW, Duration.ofSeconds(1));
    }

    /** A bucket of this engine's store, every call deciding {@code windows}. */
    Bucket bucket(String name, Window[] windows) {
        return new Bucket(decider, name, windows);
    }

    /** A bucket that builds keys and store calls only, for no store. */
    static Bucket detached(String name, Window[] windows) {
        return new Bucket(null, name, windows);
    }

    /** The key of {@code identity} in the bucket {@code name}, as Throttle writes it. */
    static String key(String name, String identity) {
        return CODEC.key(CODEC.bucketHead(name), identity);
    }

    /** One bucket's keys, store calls and decisions; its limits are built once, as a target holds them. */
    static final class Bucket {
        private final Decider decider;
        private final String head;
        private final List<Limit> limits;

        private Bucket(Decider decider, String name, Window[] windows) {
            this.decider = decider;
            this.head = CODEC.bucketHead(name);
            List<Limit> limits = new ArrayList<>();
            for (Window w : windows) {
                limits.add(Limit.of(w.limit(), w.durationMillis(), w.precisionMillis()));
            }
            this.limits = List.copyOf(limits);
        }

        String key(String identity) {
            return CODEC.key(head, identity);
        }

        /** The store call of one decision; {@code nowMillis} -1 lets the store read its own clock. */
        StoreCall call(String identity, long nowMillis) {
            return call(identity, nowMillis, false);
        }

        /** As above; {@code givesBack}: every limit's weight may be given back ({@code skipSuccessful}). */
        private StoreCall call(String identity, long nowMillis, boolean givesBack) {
            String key = key(identity);
            StoreCall.Builder b = StoreCall.builder(nowMillis, true);
            for (int i = 0; i < limits.size(); i++) {
                b.add(key, limits.get(i), 1, i, givesBack);
            }
            return b.build();
        }

        /**
         * A successful call of a target that counts only failures: one decision, then its weight given back;
         * completes when the store has taken it back.
         */
        CompletionStage<Decision> decideAndGiveBack(String identity) {
            return decider.ask(call(identity, decider.now(), true), limits)
                    .thenCompose(d -> d.ending().giveBack().thenApply(x -> d));
        }

        /** Builds the store call of one decision (the store's clock) and returns its pair count. */
        int callSize(String identity) {
            return call(identity, -1).pairCount();
        }

        /** One decision at the decider's time: the client's clock, or -1 for the store's. */
        CompletionStage<Decision> decide(String identity) {
            return decider.ask(call(identity, decider.now()), limits);
        }

        /** One decision at the given time (-1: the store's clock). */
        CompletionStage<Decision> decide(String identity, long nowMillis) {
            return decider.ask(call(identity, nowMillis), limits);
        }
    }
}
