package io.github.throttle.redis;

import io.github.throttle.Decision;
import io.github.throttle.engine.Decider;
import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Took;
import io.github.throttle.engine.Taken;
import io.github.throttle.testing.RedisProcess;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A script run executes at most once: the connection is cut after Redis ran a run and before its reply reached the
 * store (a proxy in between holds the reply, then closes both sides), at several timings; after the store
 * reconnects, Redis holds that run's effect once — for a decision and for a refund.
 */
class RunsAtMostOnceTest {

    private static final long HOUR = 3_600_000L;

    /** Forwards a Redis connection; when {@link #cutAfter} is set, the next reply is held that long, then both sides close. */
    private static final class CuttingProxy implements AutoCloseable {
        private final ServerSocket server;
        private final int target;
        volatile long cutAfter = -1;
        volatile CompletableFuture<Void> cut = new CompletableFuture<>();

        CuttingProxy(int target) throws IOException {
            this.target = target;
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread accepting = new Thread(this::accept, "proxy-accept");
            accepting.setDaemon(true);
            accepting.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    Socket redis = new Socket(InetAddress.getLoopbackAddress(), target);
                    pump(client, redis, false);
                    pump(redis, client, true);
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void pump(Socket from, Socket to, boolean replies) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[64 * 1024];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        long hold = cutAfter;
                        if (replies && hold >= 0) {
                            // Redis has run the command: its reply never arrives
                            cutAfter = -1;
                            Thread.sleep(hold);
                            from.close();
                            to.close();
                            cut.complete(null);
                            return;
                        }
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                } catch (IOException | InterruptedException e) {
                    // one side closed
                } finally {
                    close(from);
                    close(to);
                }
            }, replies ? "proxy-replies" : "proxy-commands");
            t.setDaemon(true);
            t.start();
        }

        private static void close(Socket s) {
            try {
                s.close();
            } catch (IOException e) {
                // closed already
            }
        }

        /** The next reply is held {@code millis}, then the connection is cut; completes when it was. */
        CompletableFuture<Void> cutNextReplyAfter(long millis) {
            cut = new CompletableFuture<>();
            cutAfter = millis;
            return cut;
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static StoreCall record(String key, Limit limit) {
        return StoreCall.builder(-1, true).add(key, limit, 1, 0).build();
    }

    private static StoreCall report(String key, Limit limit) {
        return StoreCall.builder(-1, false).add(key, limit, 1, 0).build();
    }

    /** What the key holds by a report, once the store has reconnected (the first calls after a cut may be refused). */
    private static StoreReply reportOnceReconnected(RedisStore store, String key, Limit limit) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return store.decide(report(key, limit)).toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the store did not reconnect within 30 s", e);
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException interrupted) {
                    throw new AssertionError(interrupted);
                }
            }
        }
    }

    /**
     * A call whose connection drops after Redis ran it gets the failure policy, and its caller will never end it: the
     * seat Redis took for it is released blindly, by the lease id the call chose, once the store answers again —
     * not held until its lease (an hour here) ends.
     */
    @ParameterizedTest(name = "cut {0} ms after Redis ran it")
    @ValueSource(longs = {0, 50})
    void aSeatTakenByACallWhoseReplyWasLostIsReleased(long cutAfterMillis) throws Exception {
        Limit seats = Limit.inFlight(1, HOUR, "seats");
        String key = "lost:" + cutAfterMillis;
        try (RedisProcess redis = RedisProcess.start();
             CuttingProxy proxy = new CuttingProxy(redis.port());
             RedisStore store = new RedisStore(RedisURI.create("redis://127.0.0.1:" + proxy.port()), Duration.ofSeconds(2), 0)) {
            Decider decider = new Decider(store, InstantSource.system(), false, Duration.ofSeconds(10), FailurePolicy.ALLOW,
                    Duration.ofMillis(1));
            assertEquals(1, reportOnceReconnected(store, key, seats).remaining(0), "connected, the seat free");
            CompletableFuture<Void> cut = proxy.cutNextReplyAfter(cutAfterMillis);
            Decision lost = decider.ask(record(key, seats), List.of(seats)).toCompletableFuture().get(30, TimeUnit.SECONDS);
            cut.get(30, TimeUnit.SECONDS);
            assertTrue(lost.isUnmetered(), "no reply: the failure policy (allow) - " + lost);

            // Redis holds the lost call's seat; once the store answers again it is released, and a call gets it
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                Decision d = decider.ask(record(key, seats), List.of(seats)).toCompletableFuture().get(30, TimeUnit.SECONDS);
                if (!d.isUnmetered() && d.allowed()) {
                    break;
                }
                assertTrue(System.nanoTime() < deadline, "the lost call's seat is still held after 30 s: " + d);
                Thread.sleep(20);
            }
        }
    }

    @ParameterizedTest(name = "cut {0} ms after Redis ran it")
    @ValueSource(longs = {0, 5, 50, 300})
    void aDecisionAndARefundWhoseRepliesWereLostRanOnce(long cutAfterMillis) throws Exception {
        Limit window = Limit.fixed(10, HOUR);
        Limit seats = Limit.inFlight(10, HOUR, "seats");
        try (RedisProcess redis = RedisProcess.start();
             CuttingProxy proxy = new CuttingProxy(redis.port());
             RedisStore store = new RedisStore(RedisURI.create("redis://127.0.0.1:" + proxy.port()), Duration.ofSeconds(2), 0)) {
            // a decision: counted once, seat taken once
            StoreCall call = StoreCall.builder(-1, true).add("once:w", window, 1, 0).add("once:s", seats, 1, 1).build();
            assertTrue(store.decide(call).toCompletableFuture().get(30, TimeUnit.SECONDS).allowed());
            CompletableFuture<Void> cut = proxy.cutNextReplyAfter(cutAfterMillis);
            CompletableFuture<StoreReply> lost = store.decide(call).toCompletableFuture();
            cut.get(30, TimeUnit.SECONDS);
            assertThrows(Exception.class, () -> lost.get(30, TimeUnit.SECONDS), "its reply never came");
            assertEquals(8, reportOnceReconnected(store, "once:w", window).remaining(0), "two calls counted, not three");
            assertEquals(8, reportOnceReconnected(store, "once:s", seats).remaining(0), "two seats held, not three");

            // a refund: given back once
            StoreReply taken = store.decide(record("once:w", window)).toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertEquals(7, taken.remaining(0));
            cut = proxy.cutNextReplyAfter(cutAfterMillis);
            CompletableFuture<Void> refund = store.giveBack(Took.of(record("once:w", window), taken))
                    .toCompletableFuture();
            cut.get(30, TimeUnit.SECONDS);
            assertThrows(Exception.class, () -> refund.get(30, TimeUnit.SECONDS), "its reply never came");
            assertEquals(8, reportOnceReconnected(store, "once:w", window).remaining(0), "given back once, not twice");
        }
    }
}
