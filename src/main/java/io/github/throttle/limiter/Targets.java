package io.github.throttle.limiter;

import io.github.throttle.ThrottleKey;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.config.LimitConfig;
import io.github.throttle.config.TargetConfig;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import org.eclipse.microprofile.config.Config;

import java.lang.reflect.Method;
import io.github.throttle.metrics.Meters;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The targets of one application: each built once, from its {@link TargetConfig}, on first use (start-up
 * builds them all, so that a bad annotation or value fails the deployment), then cached.
 */
public final class Targets {

    /** The {@code plan} tag of calls on no plan. */
    static final String DEFAULT_PLAN = "default";

    private final Config config;
    private final KeyCodec codec;
    private final Function<Class<? extends ThrottleKey>, ThrottleKey> resolverFactory;
    private final Predicate<Method> httpEndpoints;
    private final boolean reportByDefault;
    private final Meters meters;
    private final InstantSource clock;
    /** One report log per bucket, shared by the targets that count in it. */
    private final Map<String, ReportLog> reportLogs = new HashMap<>();
    /** One instance per resolver class, shared by every target. */
    private final Map<Class<? extends ThrottleKey>, TaggedResolver> resolvers = new HashMap<>();
    private final ConcurrentHashMap<TargetId, Target> built = new ConcurrentHashMap<>();

    /**
     * @param resolverFactory makes the instance of a {@link ThrottleKey} class (a CDI bean or a new
     *                        instance); null when it can do neither
     * @param httpEndpoints   which methods the HTTP filter throttles (the CDI interceptor leaves them)
     */
    public Targets(Config config, KeyCodec codec, Function<Class<? extends ThrottleKey>, ThrottleKey> resolverFactory,
                   Predicate<Method> httpEndpoints) {
        this(config, codec, resolverFactory, httpEndpoints, false, Meters.NONE, InstantSource.system());
    }

    /**
     * @param reportByDefault {@code throttle.mode=report}
     * @param meters          where calls are counted
     * @param clock           paces the report-mode log
     */
    public Targets(Config config, KeyCodec codec, Function<Class<? extends ThrottleKey>, ThrottleKey> resolverFactory,
                   Predicate<Method> httpEndpoints, boolean reportByDefault, Meters meters, InstantSource clock) {
        this.reportByDefault = reportByDefault;
        this.meters = meters;
        this.clock = clock;
        this.config = config;
        this.codec = codec;
        this.resolverFactory = resolverFactory;
        this.httpEndpoints = httpEndpoints;
    }

    /**
     * The target of a method of a bean class.
     *
     * @throws InvalidThrottleException naming the method and the member or configuration key at fault
     */
    public Target of(Class<?> beanClass, Method method) {
        TargetId id = new TargetId(beanClass, method);
        Target t = built.get(id);
        return t != null ? t : built.computeIfAbsent(id, x -> build(beanClass, method));
    }

    private synchronized Target build(Class<?> beanClass, Method method) {
        TargetConfig target = TargetConfig.read(config, beanClass, method, reportByDefault);
        int n = target.limits().size();
        List<Limit> limits = new ArrayList<>(n);
        long[] weights = new long[n];
        String[] bucketHeads = new String[n];
        List<TaggedResolver> used = new ArrayList<>();
        int[][] resolversOf = new int[n][];
        for (int i = 0; i < n; i++) {
            LimitConfig c = target.limits().get(i);
            limits.add(c.toLimit());
            weights[i] = c.weight();
            bucketHeads[i] = codec.bucketHead(c.bucket());
            resolversOf[i] = new int[c.key().size()];
            for (int k = 0; k < c.key().size(); k++) {
                TaggedResolver r = resolver(c.key().get(k), c);
                if (!used.contains(r)) {
                    used.add(r);
                }
                resolversOf[i][k] = used.indexOf(r);
            }
        }
        String bucket = n == 0 ? target.target() : target.limits().get(0).bucket();
        Map<CallResult, Meters.Counter> calls = new EnumMap<>(CallResult.class);
        for (CallResult r : CallResult.values()) {
            calls.put(r, meters.calls(bucket, DEFAULT_PLAN, r.tag()));
        }
        ReportLog reportLog = reportLogs.computeIfAbsent(bucket, b -> new ReportLog(b, clock));
        return new Target(method, target.target(), target.enabled(), httpEndpoints.test(method), target.report(), bucket,
                calls, reportLog, List.copyOf(limits), weights, bucketHeads, List.copyOf(used), resolversOf);
    }

    private TaggedResolver resolver(Class<? extends ThrottleKey> type, LimitConfig c) {
        TaggedResolver r = resolvers.get(type);
        if (r == null) {
            ThrottleKey instance;
            try {
                instance = resolverFactory.apply(type);
            } catch (RuntimeException e) {
                throw c.invalid("key", type.getName(), "cannot be created: " + e);
            }
            if (instance == null) {
                throw c.invalid("key", type.getName(), "is neither a CDI bean nor a class with a public no-argument constructor");
            }
            r = new TaggedResolver(instance);
            resolvers.put(type, r);
        }
        return r;
    }

    private record TargetId(Class<?> beanClass, Method method) {
    }
}
