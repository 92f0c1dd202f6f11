package io.github.throttle.bench;

import io.github.throttle.Caller;
import io.github.throttle.Decision;
import io.github.throttle.Throttle;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Target;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.security.Principal;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One allowed call through the {@link Limiter} over the embedded store, as an adapter makes it (target → plan →
 * charge → store → decision), one thread, one identity, three limits raised so that every call is allowed: the
 * heap it allocates per call ({@code com.sun.management.ThreadMXBean}) and the time it takes (not to be judged on a
 * busy machine). Run alone, also under Java Flight Recorder:
 * {@code java -cp "classes:lib/*" io.github.throttle.bench.LimiterPath [calls]}.
 */
public final class LimiterPath {

    /** The three limits of the other sections (1 s + 1 min + 1 h by 1 min), raised so that every call is allowed. */
    public static final class Api {
        @Throttle(limit = 1_000_000_000, duration = 1, unit = ChronoUnit.SECONDS)
        @Throttle(limit = 1_000_000_000, duration = 1, unit = ChronoUnit.MINUTES)
        @Throttle(limit = 1_000_000_000, duration = 1, precision = 1, unit = ChronoUnit.HOURS)
        public void search() {
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        Config config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(Map.of(), "bench", 500)).build();
        InstantSource clock = InstantSource.system();
        try (Limiter limiter = Bootstrap.assemble(ThrottleSettings.read(config), config, new MemoryStore(clock), clock,
                type -> null, m -> false, Meters.NONE, Optional.empty())) {
            Method search = Api.class.getMethod("search");
            Target target = limiter.target(Api.class, search);
            Caller caller = new AddressCaller(search, Optional.of("192.0.2.7"), Optional.empty());
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long sink = 0;
            for (int round = 0; round < 3; round++) {
                long bytes0 = threads.getCurrentThreadAllocatedBytes();
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    Decision d = limiter.admit(target, caller).toCompletableFuture().join();
                    sink += d.remaining();
                }
                long nanos = System.nanoTime() - t0;
                long bytes = threads.getCurrentThreadAllocatedBytes() - bytes0;
                System.out.println(String.format(Locale.ROOT, "round %d: %.0f bytes per allowed call, %.0f ns per call (%d)",
                        round + 1, bytes / (double) n, nanos / (double) n, sink % 10));
            }
        }
    }

    /** A caller of an HTTP endpoint without headers: its address, and its principal if it has one. */
    private record AddressCaller(Method method, Optional<String> clientAddress, Optional<Principal> principal) implements Caller {
        @Override
        public Optional<String> header(String name) {
            return Optional.empty();
        }
    }
}
