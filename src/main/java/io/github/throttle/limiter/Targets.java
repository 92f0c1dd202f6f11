package io.github.throttle.limiter;

import io.github.throttle.ThrottleKey;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.config.LimitConfig;
import io.github.throttle.config.TargetConfig;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import org.eclipse.microprofile.config.Config;

import java.lang.reflect.Method;
import java.util.ArrayList;
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

    private final Config config;
    private final KeyCodec codec;
    private final Function<Class<? extends ThrottleKey>, ThrottleKey> resolverFactory;
    private final Predicate<Method> httpEndpoints;
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
        TargetConfig target = TargetConfig.read(config, beanClass, method);
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
        return new Target(method, target.target(), target.enabled(), httpEndpoints.test(method), List.copyOf(limits),
                weights, bucketHeads, List.copyOf(used), resolversOf);
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
