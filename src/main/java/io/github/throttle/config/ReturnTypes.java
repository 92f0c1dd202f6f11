package io.github.throttle.config;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Set;

/**
 * What a throttled method's return type says about when its call ends. Types are told apart by name, so that
 * none of the optional libraries (Mutiny, Reactive Streams, Vert.x, Reactor, RxJava) is ever loaded here.
 */
public final class ReturnTypes {

    /** How a call of a bean method is decided and when it ends. */
    public enum Kind {
        /** Decided before the method runs; the call ends when it returns or throws. */
        PLAIN,
        /** {@code CompletionStage} or {@code CompletableFuture}: decided without blocking, ends with its stage. */
        STAGE,
        /** Mutiny {@code Uni}: decided on each subscription, ends with it. */
        UNI,
        /** Mutiny {@code Multi}: decided on each subscription, ends with it. */
        MULTI,
        /** Reactive Streams {@code Publisher}: decided on each subscription, ends with it. */
        PUBLISHER,
        /** {@code java.util.concurrent.Flow.Publisher}: decided on each subscription, ends with it. */
        FLOW_PUBLISHER
    }

    /** The return types Throttle follows, exactly these (a subtype could not be returned in their place). */
    private static final Map<String, Kind> FOLLOWED = Map.of(
            "java.util.concurrent.CompletionStage", Kind.STAGE,
            "java.util.concurrent.CompletableFuture", Kind.STAGE,
            "io.smallrye.mutiny.Uni", Kind.UNI,
            "io.smallrye.mutiny.Multi", Kind.MULTI,
            "org.reactivestreams.Publisher", Kind.PUBLISHER,
            "java.util.concurrent.Flow$Publisher", Kind.FLOW_PUBLISHER);

    /** Types whose values stand for work that goes on after the method returns, and their subtypes. */
    private static final Set<String> ASYNC = Set.of(
            "java.util.concurrent.Future", "java.util.concurrent.CompletionStage", "java.util.concurrent.Flow$Publisher",
            "org.reactivestreams.Publisher", "io.vertx.core.Future", "kotlinx.coroutines.Job", "kotlinx.coroutines.flow.Flow");

    private ReturnTypes() {
    }

    /** How calls of {@code method} are decided and when they end. */
    public static Kind of(Method method) {
        return FOLLOWED.getOrDefault(method.getReturnType().getName(), Kind.PLAIN);
    }

    /**
     * Checks that the seats of a bean method's calls can be held until its work ends: its return type is one that
     * is followed, or one whose values do not stand for work still to run. A type stands for such work when it is
     * or extends {@code Future}, {@code CompletionStage}, a Reactive Streams or {@code Flow} {@code Publisher}, a
     * Vert.x {@code Future} or a Kotlin {@code Job} or {@code Flow}, or has a public {@code subscribe} method
     * (Reactor, RxJava, ...).
     *
     * @param target {@code Class#method}, for the message
     * @throws InvalidThrottleException naming the method when it returns another such type
     */
    public static void checkSeatsFollowed(String target, Method method) {
        Class<?> type = method.getReturnType();
        if (of(method) == Kind.PLAIN && runsLater(type)) {
            throw new InvalidThrottleException("Invalid @Throttle on " + target + ": an inFlight limit cannot hold its seats "
                    + "while the work of a " + type.getName() + " runs, after the method has returned; return "
                    + "CompletionStage, CompletableFuture, Uni, Multi or a Reactive Streams or Flow Publisher (seats are "
                    + "held until it completes, fails or is cancelled), or remove inFlight");
        }
    }

    /** Whether values of {@code type} stand for work that may run after they are returned. */
    static boolean runsLater(Class<?> type) {
        if (type.isPrimitive() || type.isArray() || type == Object.class) {
            return false;
        }
        if (extendsAsync(type)) {
            return true;
        }
        try {
            for (Method m : type.getMethods()) {
                if (m.getName().equals("subscribe") && !Modifier.isStatic(m.getModifiers())) {
                    return true;
                }
            }
        } catch (LinkageError e) {
            // a type whose methods name classes that are absent is not one the application can use
        }
        return false;
    }

    private static boolean extendsAsync(Class<?> type) {
        if (type == null) {
            return false;
        }
        if (ASYNC.contains(type.getName()) || extendsAsync(type.getSuperclass())) {
            return true;
        }
        for (Class<?> i : type.getInterfaces()) {
            if (extendsAsync(i)) {
                return true;
            }
        }
        return false;
    }
}
