package io.github.throttle;

import jakarta.enterprise.util.Nonbinding;
import jakarta.ws.rs.NameBinding;
import jakarta.interceptor.InterceptorBinding;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.temporal.ChronoUnit;

/**
 * Limits how much weight an identity may spend on the annotated method (or on every business method of the
 * annotated class) inside a sliding window.
 *
 * <p>The window is {@link #duration()} long and is counted in sub-buckets of {@link #precision()}; a call is
 * allowed when, for every limit of the target and every identity of the caller, the weight already counted in
 * the window plus this call's {@link #weight()} does not exceed {@link #limit()}. A denied call records
 * nothing. Repeat the annotation to apply several limits together; they are decided atomically, in one store
 * call.
 *
 * <p>Every member can be overridden with MicroProfile Config:
 * {@code <class>/<method>/Throttle/<member>}, {@code <class>/Throttle/<member>}, {@code Throttle/<member>}
 * (first found wins); insert the position of one limit among repeated annotations to override that one only,
 * e.g. {@code com.acme.Search/find/Throttle/1/limit=500}. {@code .../Throttle/enabled=false} switches the
 * target off.
 *
 * <p>It is a CDI interceptor binding (bean methods) and a JAX-RS name binding (on Quarkus REST, resource methods
 * are decided by a filter bound by it, on the event loop).
 */
@Documented
@Inherited
@InterceptorBinding
@NameBinding
@Repeatable(Throttle.List.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Throttle {

    /**
     * Total weight allowed inside one window; at least 1. Required.
     *
     * @return the weight allowed per window
     */
    @Nonbinding
    long limit();

    /**
     * Window length, in {@link #unit()}; the window must be at least one millisecond. Default {@code 1}.
     *
     * @return the window length
     */
    @Nonbinding
    long duration() default 1;

    /**
     * Sub-bucket length, in {@link #unit()}; {@code 0} means the whole window (a fixed window). Smaller is
     * smoother and costs more memory; it must not exceed the duration. Default {@code 0}.
     *
     * @return the sub-bucket length, or {@code 0} for a fixed window
     */
    @Nonbinding
    long precision() default 0;

    /**
     * Unit of {@link #duration()} and {@link #precision()}: from {@code MILLIS} to {@code WEEKS}. Default
     * {@code SECONDS}.
     *
     * @return the time unit
     */
    @Nonbinding
    ChronoUnit unit() default ChronoUnit.SECONDS;

    /**
     * Cost of one call; between 1 and {@link #limit()}. Default {@code 1}.
     *
     * @return the weight charged per call
     */
    @Nonbinding
    long weight() default 1;

    /**
     * Bucket name: targets with the same name share one quota. Empty (the default) means
     * {@code Class#method}: the fully qualified class name, {@code #} and the method name.
     *
     * @return the bucket name, or empty for the method's own bucket
     */
    @Nonbinding
    String name() default "";

    /**
     * Who is limited. Empty (the default) means the authenticated principal, else the client address. With
     * several resolvers, each identity they yield is limited on its own and the call needs all of them to allow
     * it.
     *
     * @return the identity resolvers, or none for the default identity
     */
    @Nonbinding
    Class<? extends ThrottleKey>[] key() default {};

    /**
     * The plan this limit applies to: empty (the default) for calls on no plan, or on a plan for which the
     * target declares no limit; otherwise a plan name (lowercase letters, digits and {@code -}; not
     * {@code default}, {@code unlimited} or {@code blocked}). A call on plan {@code pro} gets the target's
     * {@code pro} limits instead of its default ones. A target that declares plan limits must declare default
     * limits too. A call's plan comes from the {@code throttle.plans.<plan>} lists, else from the
     * {@link ThrottlePlan} bean.
     *
     * @return the plan name, or empty for the default limits
     */
    @Nonbinding
    String plan() default "";

    /**
     * Gives each call's weight, replacing {@link #weight()}; {@code ThrottleWeight.class} itself (the default)
     * means none.
     *
     * @return the weigher class, or {@code ThrottleWeight.class} for the fixed {@link #weight()}
     */
    @Nonbinding
    Class<? extends ThrottleWeight> weigher() default ThrottleWeight.class;

    /**
     * Whether successful calls give their weight back, so that only failures use the quota (login attempts):
     * a call is decided and charged as usual, and its weight is returned, before the response is sent, when
     * the response status is below 400 (a bean method: when it returns normally). Calls whose outcome is
     * pending hold their weight, so concurrent calls never get past the limit. Default {@code false}.
     *
     * @return whether successful calls are not counted
     */
    @Nonbinding
    boolean skipSuccessful() default false;

    /**
     * Whether this limit counts calls in progress rather than calls made: at most {@link #limit()} weight may be
     * held at once. An allowed call holds its weight (a seat) until it ends: the method returns or throws, its
     * HTTP response entity is written, or the {@code CompletionStage} it returns completes. {@link #duration()}
     * is then the lease: a seat still held after it (an instance that stopped, a call that outlived it) is
     * released by the store, so choose it longer than the slowest call. {@link #precision()} must be left unset;
     * the limit is at most 10,000. Seats are counted apart from rate limits, even of the same duration, and are
     * checked together with the target's other limits. A denied call gets {@code Retry-After} = the soonest
     * lease end that frees enough. Default {@code false}.
     *
     * @return whether the limit counts calls in progress
     */
    @Nonbinding
    boolean inFlight() default false;

    /**
     * How long a call that would be denied may wait for its turn, in milliseconds: if every limit of the target
     * allows it within that wait, the store reserves it at the earliest such time (counting earlier
     * reservations, on every instance) and the call proceeds then; otherwise it is denied at once, as without
     * a wait. Waiting callers proceed in reservation order and no window ever admits more than its limit. A
     * target waits at most the largest value among its limits. Reactive HTTP endpoints wait without holding a
     * thread; other endpoints and CDI bean methods wait on their caller's thread. Report mode
     * never waits; calls whose keys span several Redis Cluster slots are not waited for. Cannot be combined
     * with an {@link #inFlight()} limit on the same target. Default {@code 0}: never wait.
     *
     * @return the longest wait in milliseconds, 0 or more
     */
    @Nonbinding
    long maxWaitMillis() default 0;

    /** Holds repeated {@link Throttle} annotations. */
    @Documented
    @Inherited
    @NameBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.TYPE})
    @interface List {
        /**
         * The repeated annotations, in declaration order.
         *
         * @return the limits of the target
         */
        Throttle[] value();
    }
}
