package io.github.throttle.bench;

import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.memory.MemoryStore;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/** Heap of the memory store holding N identities, and after they have all gone idle. Run in a fresh JVM. */
public final class Heap {

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        AtomicLong now = new AtomicLong(System.currentTimeMillis());
        InstantSource clock = new InstantSource() {
            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(now.get());
            }

            @Override
            public long millis() {
                return now.get();
            }
        };
        KeyCodec codec = new KeyCodec("throttle");
        String part = codec.bucketHead("heap");
        Limit[] limits = Bench.EXAMPLE;
        MemoryStore store = new MemoryStore(clock);
        long empty = used();
        for (int i = 0; i < n; i++) {
            String key = codec.key(part, Bench.identity(i));
            StoreCall.Builder b = StoreCall.builder(-1, true);
            for (int q = 0; q < limits.length; q++) {
                b.add(key, limits[q], 1, q);
            }
            if (!store.decideNow(b.build()).allowed()) {
                throw new IllegalStateException("denied");
            }
        }
        while (sweeping(store)) {
            Thread.sleep(10);
        }
        long full = used();
        int held = store.size();
        now.addAndGet(3_660_000);
        StoreCall.Builder b = StoreCall.builder(-1, true);
        String key = codec.key(part, "key:late");
        for (int q = 0; q < limits.length; q++) {
            b.add(key, limits[q], 1, q);
        }
        long t0 = System.nanoTime();
        store.decideNow(b.build());
        while (store.size() > 1 && System.nanoTime() - t0 < 60_000_000_000L) {
            Thread.sleep(5);
        }
        long sweep = (System.nanoTime() - t0) / 1_000_000;
        long after = used();
        System.out.println("held=" + held);
        System.out.println("heapMB=" + String.format(Locale.ROOT, "%.1f", (full - empty) / 1048576.0));
        System.out.println("bytesPerIdentity=" + (full - empty) / n);
        System.out.println("heldAfter=" + (store.size() - 1));
        System.out.println("afterEvictionMB=" + String.format(Locale.ROOT, "%.1f", (after - empty) / 1048576.0));
        System.out.println("sweepMillis=" + sweep);
    }

    private static boolean sweeping(MemoryStore store) throws Exception {
        var f = MemoryStore.class.getDeclaredField("sweeping");
        f.setAccessible(true);
        return ((java.util.concurrent.atomic.AtomicBoolean) f.get(store)).get();
    }

    static long used() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
