package io.github.throttle.bench;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Heap of the memory store holding N identities (one call each, the README example's limits), and after
 * they have all gone idle. Run in a fresh JVM by {@link HeapSection}; prints {@code name=value} lines.
 */
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
        MemoryAdapter store = new MemoryAdapter(clock);
        Engine.Bucket bucket = store.bucket("heap", Windows.EXAMPLE);
        long empty = used();
        for (int i = 0; i < n; i++) {
            if (!store.decideAllowed(bucket, Context.identity(i))) {
                throw new IllegalStateException("denied");
            }
        }
        while (store.sweeping()) {
            Thread.sleep(10);
        }
        long full = used();
        int held = store.size();
        now.addAndGet(3_660_000);
        long t0 = System.nanoTime();
        store.decideAllowed(bucket, "key:late");
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

    static long used() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
