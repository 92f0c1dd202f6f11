package it.throttle.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/** Runs calls at the same moment, each on its own thread, and collects what they answered. */
public final class Concurrently {

    private Concurrently() {
    }

    /** Starts {@code n} calls together (call {@code i} runs {@code call.apply(i)}); their answers in call order. */
    public static <T> List<T> run(int n, IntFunction<T> call) {
        ExecutorService threads = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch ready = new CountDownLatch(n);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(threads.submit(() -> {
                    ready.countDown();
                    go.await();
                    return call.apply(index);
                }));
            }
            ready.await(30, TimeUnit.SECONDS);
            go.countDown();
            List<T> answers = new ArrayList<>(n);
            for (Future<T> f : futures) {
                answers.add(f.get(60, TimeUnit.SECONDS));
            }
            return answers;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("a concurrent call failed", e);
        } finally {
            threads.shutdownNow();
        }
    }

    /** How often each value occurs. */
    public static <T extends Comparable<T>> Map<T, Long> histogram(List<T> values) {
        Map<T, Long> counts = new TreeMap<>();
        values.forEach(v -> counts.merge(v, 1L, Long::sum));
        return counts;
    }
}
