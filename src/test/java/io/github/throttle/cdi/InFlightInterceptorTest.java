package io.github.throttle.cdi;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottledException;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.TestConfig;
import jakarta.enterprise.inject.Instance;
import jakarta.interceptor.InvocationContext;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In-flight limits through the CDI interceptor, on the embedded store: a call holds its seat while it works and
 * gives it back when it returns or throws (methods returning a stage or a publisher: {@link AsyncMethodsTest}). The
 * clock never moves, so no lease runs out: every seat that comes back was released by the interceptor.
 */
class InFlightInterceptorTest {

    static class Worker {
        @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public void work() { }
    }

    private static final int THREADS = 16;
    private static final int ROUNDS = 20;

    private final MutableClock clock = new MutableClock(1_790_000_000_000L);
    private final Limiter limiter = limiter(clock);
    private final ThrottleInterceptor interceptor = interceptor(limiter);
    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stop() {
        pool.shutdownNow();
        limiter.close();
    }

    @Test
    void neverMoreThanTwoCallsWorkAtOnceAndEverySeatComesBack() throws Exception {
        rounds(false);
    }

    @Test
    void callsThatThrowGiveTheirSeatsBackToo() throws Exception {
        rounds(true);
    }

    /**
     * Each round, {@link #THREADS} calls start at once: two are let in and work until the round's gate opens, the
     * others are refused while they work. Then the two end (returning, or throwing) and the next round starts: it
     * gets two seats again only if both were given back.
     */
    private void rounds(boolean throwing) throws Exception {
        Method work = Worker.class.getDeclaredMethod("work");
        for (int round = 0; round < ROUNDS; round++) {
            AtomicInteger working = new AtomicInteger();
            AtomicInteger mostAtOnce = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            CountDownLatch settled = new CountDownLatch(THREADS);
            CountDownLatch gate = new CountDownLatch(1);
            List<Future<Object>> calls = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                calls.add(pool.submit(() -> {
                    try {
                        return interceptor.throttle(invocation(work, () -> {
                            mostAtOnce.accumulateAndGet(working.incrementAndGet(), Math::max);
                            settled.countDown();
                            try {
                                assertTrue(gate.await(30, TimeUnit.SECONDS), "the round's gate opens");
                            } finally {
                                working.decrementAndGet();
                            }
                            if (throwing) {
                                throw new IllegalStateException("the work failed");
                            }
                            return "done";
                        }));
                    } catch (ThrottledException e) {
                        refused.incrementAndGet();
                        settled.countDown();
                        return e;
                    }
                }));
            }
            assertTrue(settled.await(30, TimeUnit.SECONDS), "every call was let in or refused");
            assertEquals(2, working.get(), "round " + round + ": two calls work");
            assertEquals(THREADS - 2, refused.get(), "round " + round + ": the others are refused while they work");
            gate.countDown();
            int failed = 0;
            for (Future<Object> f : calls) {
                try {
                    f.get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    assertInstanceOf(IllegalStateException.class, e.getCause());
                    failed++;
                }
            }
            assertEquals(throwing ? 2 : 0, failed);
            assertTrue(mostAtOnce.get() <= 2, "never more than two at once: " + mostAtOnce.get());
        }
    }

    private static Limiter limiter(MutableClock clock) {
        Config c = TestConfig.of();
        // no resolver or weigher to make: the workers use the default identity and weight
        return Bootstrap.assemble(ThrottleSettings.read(c), c, new MemoryStore(clock), clock, type -> null,
                m -> false, Meters.NONE, Optional.empty());
    }

    private static ThrottleInterceptor interceptor(Limiter limiter) {
        ThrottleInterceptor i = new ThrottleInterceptor();
        i.limiter = limiter;
        i.principals = new PrincipalLookup();
        i.principals.principal = unresolvable();
        i.current = unresolvable();
        return i;
    }

    /** An {@link Instance} with no bean behind it, as in a container without one. */
    @SuppressWarnings("unchecked")
    private static <T> Instance<T> unresolvable() {
        return (Instance<T>) Proxy.newProxyInstance(Instance.class.getClassLoader(), new Class<?>[] {Instance.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "isResolvable" -> false;
                    case "isUnsatisfied" -> true;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    /** The invocation of {@code method} on a worker, whose body is {@code body}. */
    private static InvocationContext invocation(Method method, Callable<Object> body) {
        return (InvocationContext) Proxy.newProxyInstance(InvocationContext.class.getClassLoader(),
                new Class<?>[] {InvocationContext.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getTarget" -> new Worker();
                    case "getParameters" -> new Object[0];
                    case "proceed" -> body.call();
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }
}
