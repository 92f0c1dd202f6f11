package it.throttle.servlet;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Throttled asynchronous bean methods as a servlet application writes them: one in a transaction, one whose body
 * blocks until the test lets it go. Each answer tells where its body ran.
 */
@ApplicationScoped
public class Ledger {

    private final Map<String, CountDownLatch> started = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> released = new ConcurrentHashMap<>();

    /** {@code tx=<whether a transaction is active> on=<thread>}, as the body sees it. */
    @Transactional
    @Throttle(limit = 1_000_000, duration = 60)
    public CompletionStage<String> record() {
        return CompletableFuture.completedFuture("tx=" + (registry().getTransactionKey() != null)
                + " on=" + Thread.currentThread().getName());
    }

    /** Blocks its body until {@link #release} (at most a minute), then answers where it ran. */
    @Throttle(limit = 1_000_000, duration = 60)
    public CompletionStage<String> held(String id) throws InterruptedException {
        latch(started, id).countDown();
        boolean let = latch(released, id).await(60, TimeUnit.SECONDS);
        return CompletableFuture.completedFuture((let ? "released" : "never released") + " on=" + Thread.currentThread().getName());
    }

    /** Whether the body of {@code held(id)} runs, waiting at most {@code seconds}. */
    public boolean started(String id, long seconds) throws InterruptedException {
        return latch(started, id).await(seconds, TimeUnit.SECONDS);
    }

    public void release(String id) {
        latch(released, id).countDown();
    }

    private static CountDownLatch latch(Map<String, CountDownLatch> latches, String id) {
        return latches.computeIfAbsent(id, x -> new CountDownLatch(1));
    }

    private static TransactionSynchronizationRegistry registry() {
        try {
            return (TransactionSynchronizationRegistry) new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
        } catch (NamingException e) {
            throw new IllegalStateException(e);
        }
    }
}
