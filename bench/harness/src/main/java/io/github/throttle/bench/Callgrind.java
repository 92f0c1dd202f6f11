package io.github.throttle.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A redis-server under valgrind's callgrind, which counts the instructions it executes (user space): its
 * counters are zeroed before the calls to count and dumped after them, and the dump's total is read back.
 */
final class Callgrind implements AutoCloseable {

    final RedisServer server;
    private final Path dir;
    private final String pid;

    Callgrind() throws IOException, InterruptedException {
        this.dir = Files.createTempDirectory("throttle-bench-callgrind-");
        this.server = new RedisServer(List.of("valgrind", "--tool=callgrind", "--callgrind-out-file=" + dir.resolve("callgrind.out.%p")));
        this.pid = Long.toString(server.pid());
    }

    /** Zeroes the instruction count. */
    void zero() {
        Processes.run(List.of("callgrind_control", "-z", pid));
    }

    /** Dumps the instructions counted since {@link #zero()}; their number. */
    long dump() throws IOException {
        Processes.run(List.of("callgrind_control", "-d", pid));
        return newestDumpInstructions(dir);
    }

    /** The instruction total of the newest callgrind dump in {@code dir}. */
    static long newestDumpInstructions(Path dir) throws IOException {
        Path newest = null;
        int part = -1;
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                int dot = name.lastIndexOf('.');
                if (name.startsWith("callgrind.out.") && dot > 0) {
                    try {
                        int n = Integer.parseInt(name.substring(dot + 1));
                        if (n > part && name.indexOf('.', "callgrind.out.".length()) == dot) {
                            part = n;
                            newest = p;
                        }
                    } catch (NumberFormatException ignored) {
                        // the final profile, written at exit
                    }
                }
            }
        }
        if (newest == null) {
            throw new IllegalStateException("no callgrind dump in " + dir);
        }
        for (String line : Files.readAllLines(newest)) {
            if (line.startsWith("summary:")) {
                return Long.parseLong(line.substring("summary:".length()).trim());
            }
        }
        throw new IllegalStateException("no summary in " + newest);
    }

    @Override
    public void close() {
        server.close();
    }
}
