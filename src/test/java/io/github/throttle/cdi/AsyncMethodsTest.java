package io.github.throttle.cdi;

import io.github.throttle.CallDecision;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottledException;
import io.github.throttle.testing.RedisProcess;
import io.github.throttle.testing.TestConfig;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.netty.channel.DefaultEventLoop;
import io.smallrye.mutiny.subscription.Cancellable;
import io.github.throttle.testing.ThrottleClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.spi.CDI;
import org.junit.jupiter.api.Test;
import org.reactivestreams.FlowAdapters;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Throttled bean methods that return a stage, a {@code Uni}, a {@code Multi} or a publisher, called through a real
 * CDI container over a real store: decided where their caller is (lazy types where each subscription is made) — on
 * a thread that may wait, which then runs the method; without blocking on an event loop, which then runs it — run
 * only when allowed, and hold their seats until their result ends. The embedded store's clock
 * is the system's and every window lasts ten minutes, so no seat comes back by its lease during a test: every one
 * that comes back was given back when its result ended.
 */
class AsyncMethodsTest {

    private static final Duration AWAIT = Duration.ofSeconds(30);

    /** Methods whose work the test finishes: each run leaves its stage (or emitter) for the test to complete. */
    @ApplicationScoped
    public static class Reports {
        private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        private final BlockingQueue<CompletableFuture<String>> pending = new LinkedBlockingQueue<>();
        private final BlockingQueue<MultiEmitter<? super String>> emitters = new LinkedBlockingQueue<>();
        private volatile Optional<?> seenDecision = Optional.empty();

        @Throttle(limit = 1000, duration = 10, unit = ChronoUnit.MINUTES, name = "warm-up")
        public CompletionStage<String> warmUp() {
            return CompletableFuture.completedFuture("warm");
        }

        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES)
        public CompletionStage<String> fetch() {
            ran("fetch");
            return CompletableFuture.completedFuture("report");
        }

        /** One call in ten minutes; the answer is the thread the method ran on. */
        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES)
        public CompletionStage<String> once() {
            ran("once");
            return CompletableFuture.completedFuture(Thread.currentThread().getName());
        }

        /** The same for a {@code Uni}: the item is the thread the method ran on. */
        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES)
        public Uni<String> onceUni() {
            ran("onceUni");
            String ranOn = Thread.currentThread().getName();
            return Uni.createFrom().item(ranOn);
        }

        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public CompletableFuture<String> later() {
            ran("later");
            return held();
        }

        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, skipSuccessful = true)
        public CompletionStage<String> login() {
            ran("login");
            return held();
        }

        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public Uni<String> uni() {
            ran("uni");
            try {
                seenDecision = CDI.current().select(CallDecision.class).get().get();
            } catch (ContextNotActiveException e) {
                seenDecision = Optional.empty();
            }
            return Uni.createFrom().completionStage(held());
        }

        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public Multi<String> multi() {
            ran("multi");
            return emitted();
        }

        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public Flow.Publisher<String> flow() {
            ran("flow");
            return emitted();
        }

        @Throttle(limit = 1, duration = 10, unit = ChronoUnit.MINUTES, inFlight = true)
        public org.reactivestreams.Publisher<String> streams() {
            ran("streams");
            return FlowAdapters.toPublisher(emitted());
        }

        public int runs(String method) {
            AtomicInteger n = runs.get(method);
            return n == null ? 0 : n.get();
        }

        /** The stage of the oldest run not finished by the test. */
        public CompletableFuture<String> nextPending() throws InterruptedException {
            return pending.poll(AWAIT.toSeconds(), TimeUnit.SECONDS);
        }

        public MultiEmitter<? super String> nextEmitter() throws InterruptedException {
            return emitters.poll(AWAIT.toSeconds(), TimeUnit.SECONDS);
        }

        public Optional<?> seenDecision() {
            return seenDecision;
        }

        private void ran(String method) {
            runs.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
        }

        private Multi<String> emitted() {
            return Multi.createFrom().<String>emitter(e -> emitters.add(e));
        }

        private CompletableFuture<String> held() {
            CompletableFuture<String> f = new CompletableFuture<>();
            pending.add(f);
            return f;
        }
    }

    /**
     * A caller that may wait (a worker thread) waits for the decision and runs the method itself, in its own
     * transaction and scopes: never on the store's I/O thread. Its refusal is there when the stage is returned, so
     * the application's callbacks run on that thread too.
     */
    @Test
    void aStageMethodCalledOnAThreadThatMayWaitIsDecidedThereAndRunsThere() throws Exception {
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "app-worker"));
        try (RedisProcess redis = RedisProcess.start();
             CdiContainer cdi = CdiContainer.start(TestConfig.of("throttle.redis.uri", redis.uri(), "throttle.redis.timeout", "60s"),
                     Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            // connected, script loaded: what follows waits for nothing but the decision itself
            assertEquals("warm", await(reports.warmUp()));

            redis.pauseWrites(Duration.ofMinutes(2));
            Future<CompletionStage<String>> call;
            try {
                call = worker.submit(reports::once);
                // while Redis holds the decision, the caller waits for it: the call has not returned, nothing ran
                assertThrows(TimeoutException.class, () -> call.get(300, TimeUnit.MILLISECONDS));
                assertEquals(0, reports.runs("once"), "the method does not run before its call is allowed");
            } finally {
                redis.unpause();
            }
            CompletionStage<String> first = call.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(first.toCompletableFuture().isDone(), "decided, and run, before the call returned");
            assertEquals("app-worker", await(first), "the method ran on its caller's thread");

            String refused = worker.submit(() -> reports.once().handle((v, e) -> Thread.currentThread().getName() + " "
                    + (e == null ? v : e.getClass().getSimpleName()))).get(AWAIT.toSeconds(), TimeUnit.SECONDS)
                    .toCompletableFuture().get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals("app-worker ThrottledException", refused, "the refusal lands on the caller's thread");
            assertEquals(1, reports.runs("once"), "a refused call never runs the method");
        } finally {
            worker.shutdownNow();
        }
    }

    /**
     * A caller on an event loop must not wait: the call returns before the store has answered, and the method, its
     * refusal and the application's callbacks run back on that event loop, never on the store's I/O thread.
     */
    @Test
    void aStageMethodCalledOnAnEventLoopReturnsAtOnceAndGoesOnThere() throws Exception {
        DefaultEventLoop loop = new DefaultEventLoop((java.util.concurrent.ThreadFactory) r -> new Thread(r, "app-event-loop"));
        try (RedisProcess redis = RedisProcess.start();
             CdiContainer cdi = CdiContainer.start(TestConfig.of("throttle.redis.uri", redis.uri(), "throttle.redis.timeout", "60s"),
                     Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            assertEquals("warm", await(reports.warmUp()));

            redis.pauseWrites(Duration.ofMinutes(2));
            CompletionStage<String> first;
            try {
                first = loop.submit(reports::once).get(AWAIT.toSeconds(), TimeUnit.SECONDS);
                assertFalse(first.toCompletableFuture().isDone(), "the store has not answered: nothing is decided yet");
                assertEquals(0, reports.runs("once"), "the method does not run before its call is allowed");
            } finally {
                redis.unpause();
            }
            assertEquals("app-event-loop", await(first), "the method ran back on the calling event loop");

            CompletionStage<String> refused = loop.submit(() -> reports.once().handle((v, e) -> Thread.currentThread().getName()
                    + " " + (e == null ? v : e.getClass().getSimpleName()))).get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals("app-event-loop ThrottledException", await(refused), "the refusal lands on the event loop");
            assertEquals(1, reports.runs("once"));
        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    /** A lazy type's caller is its subscriber: the method runs where the {@code Uni} is subscribed. */
    @Test
    void aUniRunsWhereItIsSubscribed() throws Exception {
        DefaultEventLoop loop = new DefaultEventLoop((java.util.concurrent.ThreadFactory) r -> new Thread(r, "app-event-loop"));
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "app-worker"));
        try (RedisProcess redis = RedisProcess.start();
             CdiContainer cdi = CdiContainer.start(TestConfig.of("throttle.redis.uri", redis.uri(), "throttle.redis.timeout", "60s"),
                     Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            assertEquals("warm", await(reports.warmUp()));
            Uni<String> uni = reports.onceUni();

            CompletableFuture<String> onLoop = new CompletableFuture<>();
            loop.execute(() -> uni.subscribe().with(onLoop::complete, e -> onLoop.complete(
                    Thread.currentThread().getName() + " " + e.getClass().getSimpleName())));
            assertEquals("app-event-loop", await(onLoop), "subscribed on the event loop, it ran there");

            String refused = worker.submit(() -> uni.onFailure().recoverWithItem(e -> Thread.currentThread().getName() + " "
                    + e.getClass().getSimpleName()).await().atMost(AWAIT)).get(AWAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals("app-worker ThrottledException", refused, "subscribed on a worker, its refusal lands there");

        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            worker.shutdownNow();
        }
    }

    /** One call per fixed window of two seconds; a call that does not fit waits for its turn, up to a minute. */
    @ApplicationScoped
    public static class Turns {
        private final AtomicInteger runs = new AtomicInteger();

        @Throttle(limit = 1, duration = 2, maxWaitMillis = 60_000)
        public Uni<String> take() {
            runs.incrementAndGet();
            return Uni.createFrom().item("took");
        }

        public int runs() {
            return runs.get();
        }
    }

    /**
     * Subscriptions that wait for their turn and are cancelled before it comes (their subscriber timed out) give
     * their reservations back at once: a later caller is not held behind them. By the manual clock.
     */
    @Test
    void waitingSubscriptionsCancelledBeforeTheirTurnHoldNobodyBack() throws Exception {
        DefaultEventLoop loop = new DefaultEventLoop((java.util.concurrent.ThreadFactory) r -> new Thread(r, "app-event-loop"));
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of("throttle.clock", "manual"), Turns.class)) {
            Turns turns = cdi.bean(Turns.class);
            ThrottleClock clock = cdi.bean(ThrottleClock.class);
            clock.advanceToNext(Duration.ofSeconds(2));
            assertEquals("took", await(subscribedOn(loop, turns.take())), "the window's one call");

            List<Cancellable> waiting = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                waiting.add(loop.submit(() -> turns.take().subscribe().with(item -> { }, failure -> { }))
                        .get(AWAIT.toSeconds(), TimeUnit.SECONDS));
            }
            assertEquals(5, clock.waiting(), "five calls wait for the five windows ahead");
            assertEquals(1, turns.runs());
            waiting.forEach(Cancellable::cancel);

            clock.advance(Duration.ofSeconds(2));
            assertEquals("took", await(subscribedOn(loop, turns.take())), "the next window's call goes at once");
            assertEquals(2, turns.runs(), "the cancelled calls never ran");
        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    /** The item of {@code uni}, subscribed on {@code loop}. */
    private static CompletableFuture<String> subscribedOn(DefaultEventLoop loop, Uni<String> uni) {
        CompletableFuture<String> item = new CompletableFuture<>();
        loop.execute(() -> uni.subscribe().with(item::complete, item::completeExceptionally));
        return item;
    }

    /** A subscription cancelled inside {@code onSubscribe} asks the store nothing and is charged nothing. */
    @Test
    void aSubscriptionCancelledAsItIsMadeIsNotCharged() throws Exception {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            for (int i = 0; i < 3; i++) {
                reports.onceUni().subscribe().withSubscriber(new UniAssertSubscriber<String>(true));
                Multi.createFrom().publisher(reports.flow()).subscribe().withSubscriber(new AssertSubscriber<String>(0, true));
            }
            assertEquals(0, reports.runs("onceUni"));
            assertEquals(0, reports.runs("flow"));
            reports.onceUni().subscribe().withSubscriber(UniAssertSubscriber.create()).assertItem(Thread.currentThread().getName());
            assertEquals(1, reports.runs("onceUni"), "the one call of ten minutes is still there");
            AssertSubscriber<String> flow = Multi.createFrom().publisher(reports.flow()).subscribe()
                    .withSubscriber(AssertSubscriber.create(1));
            assertEquals(1, reports.runs("flow"), "the one seat is still free");
            reports.nextEmitter().complete();
            flow.assertCompleted();
        }
    }

    @Test
    void aStageHoldsItsSeatUntilItCompletesFailsOrIsCancelled() throws Exception {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            CompletableFuture<String> first = reports.later();
            CompletableFuture<String> running = reports.nextPending();

            Throwable refused = failure(reports.later());
            ThrottledException denied = assertInstanceOf(ThrottledException.class, refused, "one seat, taken");
            assertTrue(denied.decision().quotas().get(0).inFlight());
            assertEquals(1, reports.runs("later"), "the refused call never ran");

            running.completeExceptionally(new IllegalStateException("failed later"));
            assertInstanceOf(IllegalStateException.class, failure(first), "the method's own failure");
            CompletableFuture<String> second = reports.later();
            assertFalse(second.isDone(), "the seat came back when the stage failed");
            assertInstanceOf(ThrottledException.class, failure(reports.later()));

            reports.nextPending().complete("done");
            assertEquals("done", await(second));
            CompletableFuture<String> third = reports.later();
            assertFalse(third.isDone(), "the seat came back when the stage completed");

            CompletableFuture<String> behind = reports.nextPending();
            third.cancel(false);
            assertTrue(behind.isCancelled(), "cancelling the result cancels the method's stage");
            CompletableFuture<String> fourth = reports.later();
            assertFalse(fourth.isDone(), "the seat came back when the result was cancelled");
            assertEquals(4, reports.runs("later"));
        }
    }

    @Test
    void aStageGivesItsWeightBackOnlyWhenItCompletesNormally() throws Exception {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            CompletionStage<String> first = reports.login();
            CompletableFuture<String> attempt = reports.nextPending();
            assertInstanceOf(ThrottledException.class, failure(reports.login()), "an attempt in progress holds its weight");

            attempt.complete("welcome");
            assertEquals("welcome", await(first));
            CompletionStage<String> second = reports.login();
            reports.nextPending().completeExceptionally(new SecurityException("wrong password"));
            assertInstanceOf(SecurityException.class, failure(second));

            assertInstanceOf(ThrottledException.class, failure(reports.login()), "the failed attempt kept its weight");
            assertEquals(2, reports.runs("login"));
        }
    }

    @Test
    void aUniIsDecidedOnEachSubscriptionAndHoldsItsSeatUntilItEnds() throws Exception {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            Uni<String> a = reports.uni();
            Uni<String> b = reports.uni();
            assertEquals(0, reports.runs("uni"), "nothing is decided or run before a subscription");

            UniAssertSubscriber<String> first = b.subscribe().withSubscriber(UniAssertSubscriber.create());
            assertEquals(1, reports.runs("uni"), "the call made second, subscribed first, takes the one seat");
            a.subscribe().withSubscriber(UniAssertSubscriber.create()).assertFailedWith(ThrottledException.class);
            assertEquals(1, reports.runs("uni"), "a refused subscription never runs the method");

            reports.nextPending().complete("first");
            first.assertItem("first");
            UniAssertSubscriber<String> again = a.subscribe().withSubscriber(UniAssertSubscriber.create());
            assertEquals(2, reports.runs("uni"), "the same Uni, subscribed again, is decided again: the seat is back");

            again.cancel();
            assertTrue(reports.nextPending().isCancelled(), "cancelling cancels the method's own Uni");
            UniAssertSubscriber<String> afterCancel = a.subscribe().withSubscriber(UniAssertSubscriber.create());
            assertEquals(3, reports.runs("uni"), "the seat came back with the cancellation");
            reports.nextPending().completeExceptionally(new IllegalStateException("failed"));
            afterCancel.assertFailedWith(IllegalStateException.class, "failed");
            b.subscribe().withSubscriber(UniAssertSubscriber.create());
            assertEquals(4, reports.runs("uni"), "the seat came back with the failure");
        }
    }

    @Test
    void aMultiHoldsItsSeatUntilItCompletesOrIsCancelled() throws Exception {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            holdsItsSeatPerSubscription(reports, "multi", reports::multi);
        }
    }

    @Test
    void flowAndReactiveStreamsPublishersHoldTheirSeatsTheSameWay() throws Exception {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            holdsItsSeatPerSubscription(reports, "flow", () -> Multi.createFrom().publisher(reports.flow()));
            holdsItsSeatPerSubscription(reports, "streams",
                    () -> Multi.createFrom().publisher(FlowAdapters.toFlowPublisher(reports.streams())));
        }
    }

    @Test
    void theRequestsCallDecisionIsSetBeforeTheMethodRuns() throws Exception {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Reports.class)) {
            Reports reports = cdi.bean(Reports.class);
            RequestContextController request = cdi.bean(RequestContextController.class);
            request.activate();
            try {
                UniAssertSubscriber<String> s = reports.uni().subscribe().withSubscriber(UniAssertSubscriber.create());
                assertTrue(reports.seenDecision().isPresent(), "the method saw its call's decision");
                reports.nextPending().complete("done");
                s.assertItem("done");
            } finally {
                request.deactivate();
            }
        }
    }

    /**
     * A method whose publisher holds one seat: a subscription made while another is open is refused; one made
     * after it completed, or after it was cancelled, is allowed.
     */
    private static void holdsItsSeatPerSubscription(Reports reports, String method, Supplier<Multi<String>> call)
            throws InterruptedException {
        Multi<String> multi = call.get();
        assertEquals(0, reports.runs(method), method + ": nothing is decided or run before a subscription");
        AssertSubscriber<String> first = multi.subscribe().withSubscriber(AssertSubscriber.create(10));
        MultiEmitter<? super String> emitter = reports.nextEmitter();
        emitter.emit("a");
        first.assertItems("a");

        multi.subscribe().withSubscriber(AssertSubscriber.create(10)).assertFailedWith(ThrottledException.class);
        assertEquals(1, reports.runs(method), method + ": a refused subscription never runs the method");

        emitter.emit("b").complete();
        first.assertItems("a", "b").assertCompleted();
        AssertSubscriber<String> second = multi.subscribe().withSubscriber(AssertSubscriber.create(10));
        assertEquals(2, reports.runs(method), method + ": the seat came back with the completion");
        MultiEmitter<? super String> secondEmitter = reports.nextEmitter();

        second.cancel();
        assertTrue(secondEmitter.isCancelled(), method + ": cancelling reaches the method's own publisher");
        AssertSubscriber<String> third = multi.subscribe().withSubscriber(AssertSubscriber.create(10));
        assertEquals(3, reports.runs(method), method + ": the seat came back with the cancellation");
        reports.nextEmitter().fail(new IllegalStateException("failed"));
        third.assertFailedWith(IllegalStateException.class, "failed");
        multi.subscribe().withSubscriber(AssertSubscriber.create(10));
        assertEquals(4, reports.runs(method), method + ": the seat came back with the failure");
        reports.nextEmitter().complete();
    }

    private static <T> T await(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(AWAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** What the stage failed with. */
    private static Throwable failure(CompletionStage<?> stage) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> stage.toCompletableFuture().get(AWAIT.toSeconds(), TimeUnit.SECONDS));
        return e.getCause();
    }
}
