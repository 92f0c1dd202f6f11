package io.github.throttle.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.github.throttle.bench.Context.log;
import static io.github.throttle.bench.Stats.f;

/** The memory store's heap with 1,000,000 identities, and after they have gone idle: {@link Heap} in a fresh JVM. */
final class HeapSection implements Section {

    @Override
    public String name() {
        return "heap";
    }

    @Override
    public void run(Context ctx) {
        log("Heap rows");
        String o = Processes.run(List.of(Processes.java(), "-Xmx1g", "-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"),
                Heap.class.getName(), "1000000"));
        Map<String, String> m = new HashMap<>();
        for (String line : o.split("\n")) {
            int i = line.indexOf('=');
            if (i > 0) {
                m.put(line.substring(0, i).trim(), line.substring(i + 1).trim());
            }
        }
        double full = Double.parseDouble(m.get("heapMB"));
        double after = Double.parseDouble(m.get("afterEvictionMB"));
        ctx.title("Memory store heap, 1,000,000 identities, limits 10/s + 120/min + 240/h by 1 min, one call each (fresh JVM, heap used after full GC, minus the empty store)");
        ctx.line("| | identities held | heap |");
        ctx.line("|---|---:|---:|");
        ctx.line(f("| after 1,000,000 identities | %s | %.0f MB (%s bytes per identity) |", m.get("held"), full, m.get("bytesPerIdentity")));
        ctx.line(f("| 1 h 1 min later, after one more call (the store's own sweep, off the caller's thread, %s ms) | %s | %.1f MB |",
                m.get("sweepMillis"), m.get("heldAfter"), after));
    }
}
