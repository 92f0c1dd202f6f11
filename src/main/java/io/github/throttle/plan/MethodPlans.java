package io.github.throttle.plan;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Limit;
import jakarta.ws.rs.HttpMethod;
import org.eclipse.microprofile.config.Config;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads a method's {@link Throttle} annotations and their MicroProfile Config overrides, checks them and
 * builds its {@link MethodPlan}. Overrides are looked up in this order, first found wins:
 * <pre>
 *   &lt;class&gt;/&lt;method&gt;/Throttle/&lt;i&gt;/&lt;member&gt;   &lt;class&gt;/&lt;method&gt;/Throttle/&lt;member&gt;
 *   &lt;class&gt;/Throttle/&lt;i&gt;/&lt;member&gt;            &lt;class&gt;/Throttle/&lt;member&gt;
 *   Throttle/&lt;member&gt;
 * </pre>
 * where {@code i} is the position (from 0) of the limit among the method's repeated annotations. Method
 * annotations replace class annotations (as in MicroProfile Fault Tolerance).
 */
public final class MethodPlans {

    private static final String ANN = "Throttle";

    private final Config config;
    private final KeyCodec codec;
    private final Function<Class<? extends ThrottleKey>, ThrottleKey> resolvers;
    private final Map<Class<? extends ThrottleKey>, Identity> identities = new HashMap<>();

    /**
     * @param resolvers makes the instance of a {@link ThrottleKey} class (a CDI bean or a new instance)
     */
    public MethodPlans(Config config, KeyCodec codec, Function<Class<? extends ThrottleKey>, ThrottleKey> resolvers) {
        this.config = config;
        this.codec = codec;
        this.resolvers = resolvers;
    }

    /** The effective annotations of a method: its own, else its class's. */
    public static Throttle[] annotations(Class<?> beanClass, Method method) {
        Throttle[] own = method.getAnnotationsByType(Throttle.class);
        if (own.length > 0) {
            return own;
        }
        return beanClass.getAnnotationsByType(Throttle.class);
    }

    /**
     * @throws InvalidThrottleException naming the method and the member or configuration key at fault
     */
    public synchronized MethodPlan plan(Class<?> beanClass, Method method) {
        String cls = beanClass.getName();
        String target = cls + "#" + method.getName();
        Throttle[] anns = annotations(beanClass, method);
        boolean http = isHttpEndpoint(method);
        boolean enabled = anns.length > 0 && bool(cls, method.getName(), "enabled", true);
        Limit[] quotas = new Limit[anns.length];
        long[] weights = new long[anns.length];
        String[] buckets = new String[anns.length];
        Identity[][] ids = new Identity[anns.length][];
        List<Identity[]> sets = new ArrayList<>();
        for (int i = 0; i < anns.length; i++) {
            Member m = new Member(cls, method.getName(), i, anns.length, target);
            Throttle a = anns[i];
            long limit = m.number("limit", a.limit());
            long duration = m.number("duration", a.duration());
            long precision = m.number("precision", a.precision());
            ChronoUnit unit = m.unit(a.unit());
            long weight = m.number("weight", a.weight());
            String name = m.string("name", a.name());
            Class<? extends ThrottleKey>[] keys = m.keys(a.key());

            if (limit < 1) {
                throw m.invalid("limit", limit, "must be at least 1");
            }
            if (limit > Limit.MAX_LIMIT) {
                throw m.invalid("limit", limit, "must not exceed " + Limit.MAX_LIMIT);
            }
            if (duration < 1) {
                throw m.invalid("duration", duration, "must be at least 1");
            }
            if (precision < 0) {
                throw m.invalid("precision", precision, "must be 0 (a fixed window) or positive");
            }
            if (precision > duration) {
                throw m.invalid("precision", precision, "must not exceed the duration (" + duration + " " + unit + ")");
            }
            if (weight < 1) {
                throw m.invalid("weight", weight, "must be at least 1");
            }
            if (weight > limit) {
                throw m.invalid("weight", weight, "must not exceed the limit (" + limit + "): such a call could never pass");
            }
            long durationMs = m.millis("duration", duration, unit);
            long precisionMs = precision == 0 ? durationMs : m.millis("precision", precision, unit);
            if (durationMs / precisionMs > Limit.MAX_BLOCKS) {
                throw m.invalid("precision", precision, "makes " + durationMs / precisionMs + " sub-buckets; at most "
                        + Limit.MAX_BLOCKS + " are allowed per window");
            }
            String bucket = name.isEmpty() ? target : name;
            Limit limitObj = new Limit(limit, durationMs, precisionMs,
                    name.isEmpty() ? Limit.windowName(durationMs) : name + "-" + Limit.windowName(durationMs));
            Identity[] set = identitySet(keys, sets, m);
            String head = codec.bucketHead(bucket);
            for (int j = 0; j < i; j++) {
                if (buckets[j].equals(head) && quotas[j].tag().equals(limitObj.tag())
                        && ids[j] == set) {
                    throw new InvalidThrottleException("Invalid @Throttle on " + target + ": limits " + j + " and " + i
                            + " count the same window (" + Limit.windowName(durationMs) + ") of the same bucket; give one a different duration, precision or name");
                }
            }
            quotas[i] = limitObj;
            weights[i] = weight;
            buckets[i] = head;
            for (int j = 0; j < i; j++) {
                if (buckets[j].equals(buckets[i])) {
                    // one instance per bucket: a call builds one key for the limits that share it
                    buckets[i] = buckets[j];
                }
            }
            ids[i] = set;
        }
        return new MethodPlan(method, target, enabled, http, quotas, weights, buckets, ids);
    }

    private Identity[] identitySet(Class<? extends ThrottleKey>[] keys, List<Identity[]> sets, Member m) {
        Identity[] set = new Identity[keys.length];
        for (int k = 0; k < keys.length; k++) {
            Class<? extends ThrottleKey> c = keys[k];
            Identity id = identities.get(c);
            if (id == null) {
                ThrottleKey r;
                try {
                    r = resolvers.apply(c);
                } catch (RuntimeException e) {
                    throw m.invalid("key", c.getName(), "cannot be created: " + e);
                }
                if (r == null) {
                    throw m.invalid("key", c.getName(), "is neither a CDI bean nor a class with a public no-argument constructor");
                }
                id = Identity.of(r);
                identities.put(c, id);
            }
            set[k] = id;
        }
        // the same resolvers give the same array, so a call resolves them once
        for (Identity[] s : sets) {
            if (Arrays.equals(s, set)) {
                return s;
            }
        }
        sets.add(set);
        return set;
    }

    private boolean bool(String cls, String method, String member, boolean dflt) {
        for (String key : List.of(cls + "/" + method + "/" + ANN + "/" + member, cls + "/" + ANN + "/" + member, ANN + "/" + member)) {
            Optional<String> v = config.getOptionalValue(key, String.class);
            if (v.isPresent()) {
                String s = v.get().trim().toLowerCase(Locale.ROOT);
                if (s.equals("true") || s.equals("false")) {
                    return s.equals("true");
                }
                throw new InvalidThrottleException("Invalid " + key + "=" + v.get() + " (for " + cls + "#" + method
                        + "): must be true or false");
            }
        }
        return dflt;
    }

    /** Whether the method (or one it overrides) is a JAX-RS resource method. */
    static boolean isHttpEndpoint(Method method) {
        for (Class<?> c = method.getDeclaringClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            if (designated(c, method)) {
                return true;
            }
            for (Class<?> i : c.getInterfaces()) {
                if (designated(i, method)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean designated(Class<?> c, Method method) {
        try {
            Method m = c.getDeclaredMethod(method.getName(), method.getParameterTypes());
            for (Annotation a : m.getAnnotations()) {
                if (a.annotationType().isAnnotationPresent(HttpMethod.class)) {
                    return true;
                }
            }
        } catch (NoSuchMethodException e) {
            // not declared here
        }
        return false;
    }

    /** Reads one member of one limit, with its overrides. */
    private final class Member {
        private final String cls;
        private final String method;
        private final int index;
        private final int count;
        private final String target;

        Member(String cls, String method, int index, int count, String target) {
            this.cls = cls;
            this.method = method;
            this.index = index;
            this.count = count;
            this.target = target;
        }

        private Optional<Map.Entry<String, String>> override(String member) {
            String m = cls + "/" + method + "/" + ANN + "/";
            String c = cls + "/" + ANN + "/";
            for (String key : List.of(m + index + "/" + member, m + member, c + index + "/" + member, c + member, ANN + "/" + member)) {
                Optional<String> v = config.getOptionalValue(key, String.class);
                if (v.isPresent()) {
                    return Optional.of(Map.entry(key, v.get()));
                }
            }
            return Optional.empty();
        }

        long number(String member, long annotated) {
            return override(member).map(e -> {
                try {
                    return Long.parseLong(e.getValue().trim());
                } catch (NumberFormatException ex) {
                    throw new InvalidThrottleException("Invalid " + e.getKey() + "=" + e.getValue() + " (for " + where()
                            + "): " + member + " must be a whole number");
                }
            }).orElse(annotated);
        }

        String string(String member, String annotated) {
            return override(member).map(e -> e.getValue().trim()).orElse(annotated);
        }

        ChronoUnit unit(ChronoUnit annotated) {
            Optional<Map.Entry<String, String>> o = override("unit");
            ChronoUnit u = annotated;
            if (o.isPresent()) {
                try {
                    u = ChronoUnit.valueOf(o.get().getValue().trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new InvalidThrottleException("Invalid " + o.get().getKey() + "=" + o.get().getValue() + " (for "
                            + where() + "): unit must be one of " + UNITS);
                }
            }
            if (!UNITS.contains(u)) {
                throw invalid("unit", u, "must be one of " + UNITS);
            }
            return u;
        }

        @SuppressWarnings("unchecked")
        Class<? extends ThrottleKey>[] keys(Class<? extends ThrottleKey>[] annotated) {
            Optional<Map.Entry<String, String>> o = override("key");
            if (o.isEmpty()) {
                return annotated;
            }
            List<Class<? extends ThrottleKey>> list = new ArrayList<>();
            for (String name : o.get().getValue().split(",")) {
                if (name.isBlank()) {
                    continue;
                }
                String n = name.trim();
                Class<?> c = builtIn(n);
                if (c == null) {
                    try {
                        c = Class.forName(n, false, Optional.ofNullable(Thread.currentThread().getContextClassLoader())
                                .orElse(MethodPlans.class.getClassLoader()));
                    } catch (ClassNotFoundException | LinkageError e) {
                        throw new InvalidThrottleException("Invalid " + o.get().getKey() + "=" + o.get().getValue()
                                + " (for " + where() + "): no class " + n);
                    }
                }
                if (!ThrottleKey.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers())) {
                    throw new InvalidThrottleException("Invalid " + o.get().getKey() + "=" + o.get().getValue()
                            + " (for " + where() + "): " + n + " is not a concrete " + ThrottleKey.class.getName());
                }
                list.add((Class<? extends ThrottleKey>) c);
            }
            return list.toArray(Class[]::new);
        }

        long millis(String member, long amount, ChronoUnit unit) {
            try {
                return Duration.of(amount, unit).toMillis();
            } catch (ArithmeticException e) {
                throw invalid(member, amount + " " + unit, "is too long");
            }
        }

        InvalidThrottleException invalid(String member, Object value, String why) {
            return new InvalidThrottleException("Invalid @Throttle on " + where() + ": " + member + " = " + value + " " + why);
        }

        private String where() {
            return target + (count > 1 ? " (limit " + index + ")" : "");
        }
    }

    private static Class<?> builtIn(String name) {
        return switch (name) {
            case "ClientAddress", "ThrottleKey.ClientAddress" -> ThrottleKey.ClientAddress.class;
            case "User", "ThrottleKey.User" -> ThrottleKey.User.class;
            case "ApiKey", "ThrottleKey.ApiKey" -> ThrottleKey.ApiKey.class;
            case "Everyone", "ThrottleKey.Everyone" -> ThrottleKey.Everyone.class;
            default -> null;
        };
    }

    private static final List<ChronoUnit> UNITS = List.of(ChronoUnit.MILLIS, ChronoUnit.SECONDS, ChronoUnit.MINUTES,
            ChronoUnit.HOURS, ChronoUnit.HALF_DAYS, ChronoUnit.DAYS, ChronoUnit.WEEKS);
}
