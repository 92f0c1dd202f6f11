package io.github.throttle.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where a process's CPU and context switches go, by thread family: its threads' {@code /proc/<pid>/task/<tid>}
 * counters before and after a run (Linux only; elsewhere every figure is zero).
 */
final class ThreadCpu {

    /** The families shown, in order; a thread belongs to the first whose name prefix it has, else to "other". */
    static final List<String> FAMILIES = List.of("Vert.x event loops", "workers", "Lettuce I/O", "other JVM threads");
    private static final Map<String, String> PREFIXES = Map.of("vert.x-eventloo", "Vert.x event loops", "executor-thread", "workers",
            "lettuce-nioEven", "Lettuce I/O", "lettuce-epollEv", "Lettuce I/O");
    private static final double MICROS_PER_TICK = 1e6 / clockTicks();

    /** Per thread: family, CPU ticks, voluntary and involuntary context switches. */
    private final Map<String, Object[]> threads;

    private ThreadCpu(Map<String, Object[]> threads) {
        this.threads = threads;
    }

    static ThreadCpu of(long pid) {
        Map<String, Object[]> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    String stat = Files.readString(task.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    long vol = 0;
                    long nonvol = 0;
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            vol = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            nonvol = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                    threads.put(task.getFileName().toString(), new Object[] {family(comm), ticks, vol, nonvol});
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return new ThreadCpu(threads);
    }

    private static String family(String comm) {
        for (Map.Entry<String, String> p : PREFIXES.entrySet()) {
            if (comm.startsWith(p.getKey())) {
                return p.getValue();
            }
        }
        return "other JVM threads";
    }

    /**
     * Per request between {@code before} and this: each family's CPU (µs), then "voluntary" and "involuntary"
     * context switches over all threads.
     */
    Map<String, Double> perRequest(ThreadCpu before, long requests) {
        Map<String, Double> out = new LinkedHashMap<>();
        FAMILIES.forEach(f -> out.put(f, 0.0));
        double vol = 0;
        double nonvol = 0;
        for (Map.Entry<String, Object[]> t : threads.entrySet()) {
            Object[] now = t.getValue();
            Object[] was = before.threads.getOrDefault(t.getKey(), new Object[] {now[0], 0L, 0L, 0L});
            out.merge((String) now[0], ((long) now[1] - (long) was[1]) * MICROS_PER_TICK / requests, Double::sum);
            vol += (long) now[2] - (long) was[2];
            nonvol += (long) now[3] - (long) was[3];
        }
        out.put("voluntary", vol / requests);
        out.put("involuntary", nonvol / requests);
        return out;
    }

    private static double clockTicks() {
        try {
            return Double.parseDouble(Processes.run(List.of("getconf", "CLK_TCK")).trim());
        } catch (RuntimeException e) {
            return 100;
        }
    }
}
