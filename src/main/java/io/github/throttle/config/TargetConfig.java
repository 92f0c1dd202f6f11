package io.github.throttle.config;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.engine.Limit;
import org.eclipse.microprofile.config.Config;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The effective configuration of one target (a method of a bean class): its {@link Throttle} annotations
 * (its own, else its class's, as in MicroProfile Fault Tolerance) with their MicroProfile Config overrides,
 * read and validated once. Overrides are looked up in this order, first found wins:
 * <pre>
 *   &lt;class&gt;/&lt;method&gt;/Throttle/&lt;i&gt;/&lt;member&gt;   &lt;class&gt;/&lt;method&gt;/Throttle/&lt;member&gt;
 *   &lt;class&gt;/Throttle/&lt;i&gt;/&lt;member&gt;            &lt;class&gt;/Throttle/&lt;member&gt;
 *   Throttle/&lt;member&gt;
 * </pre>
 * where {@code i} is the position (from 0) of the limit among the target's repeated annotations.
 *
 * @param target  {@code Class#method}
 * @param enabled false when the target declares no limit or is switched off ({@code .../Throttle/enabled=false})
 * @param report  whether the target is in report mode ({@code .../Throttle/mode=report}, else {@code throttle.mode})
 * @param leases  false when the target's calls never take from a lease ({@code .../Throttle/leases=false})
 */
public record TargetConfig(String target, boolean enabled, boolean report, boolean leases, List<LimitConfig> limits) {

    private static final String ANN = "Throttle";
    private static final Throttle[] NONE = new Throttle[0];

    /**
     * The effective annotations of a method of a class: the most specific declaration wins — the method's own, else
     * those of the nearest method of a superclass it overrides, else those of an interface method it implements
     * (the class's interfaces before its superclasses', each before the interfaces it extends), else the class's.
     */
    public static Throttle[] annotations(Class<?> beanClass, Method method) {
        Throttle[] declared = onMethods(beanClass, method);
        return declared.length > 0 ? declared : beanClass.getAnnotationsByType(Throttle.class);
    }

    /**
     * The limits declared on a method or on what it overrides or implements, as {@link #annotations} finds them,
     * leaving the class's out; empty when there are none.
     */
    public static Throttle[] onMethods(Class<?> beanClass, Method method) {
        Throttle[] own = method.getAnnotationsByType(Throttle.class);
        if (own.length > 0 || Modifier.isPrivate(method.getModifiers()) || Modifier.isStatic(method.getModifiers())) {
            return own;
        }
        for (Class<?> type : Hierarchy.of(beanClass)) {
            Throttle[] found = declaredIn(type, method.getName(), method.getParameterTypes());
            if (found.length > 0) {
                return found;
            }
        }
        return own;
    }

    private static Throttle[] declaredIn(Class<?> type, String name, Class<?>[] parameters) {
        try {
            Method m = type.getDeclaredMethod(name, parameters);
            return Modifier.isPrivate(m.getModifiers()) ? NONE : m.getAnnotationsByType(Throttle.class);
        } catch (NoSuchMethodException | LinkageError e) {
            return NONE;
        }
    }

    /** @throws InvalidThrottleException naming the method and the member or configuration key at fault */
    public static TargetConfig read(Config config, Class<?> beanClass, Method method, boolean reportByDefault) {
        String cls = beanClass.getName();
        String target = cls + "#" + method.getName();
        Throttle[] annotations = annotations(beanClass, method);
        Overrides overrides = new Overrides(config, cls, method.getName(), target);
        boolean enabled = annotations.length > 0 && overrides.enabled();
        boolean report = overrides.report(reportByDefault);
        List<LimitConfig> limits = new ArrayList<>();
        for (int i = 0; i < annotations.length; i++) {
            LimitConfig limit = overrides.limit(annotations[i], i, annotations.length);
            limit.validate();
            for (LimitConfig earlier : limits) {
                // limits of different plans may count the same window: that is how a plan change keeps usage
                if (earlier.plan().equals(limit.plan()) && earlier.bucket().equals(limit.bucket())
                        && earlier.key().equals(limit.key()) && earlier.toLimit().sameWindow(limit.toLimit())) {
                    throw new InvalidThrottleException("Invalid @Throttle on " + target + ": limits " + earlier.index()
                            + " and " + i + " count the same window (" + Limit.windowName(limit.toLimit().durationMillis())
                            + ") of the same bucket; give one a different duration, precision or name");
                }
            }
            limits.add(limit);
        }
        if (limits.stream().anyMatch(LimitConfig::inFlight) && limits.stream().anyMatch(l -> l.maxWaitMillis() > 0)) {
            throw new InvalidThrottleException("Invalid @Throttle on " + target + ": maxWaitMillis cannot be combined with an "
                    + "inFlight limit on one target (a waiting call would hold no seat while it waits); put them on different methods");
        }
        if (!limits.isEmpty() && limits.stream().noneMatch(l -> l.plan().isEmpty())) {
            throw new InvalidThrottleException("Invalid @Throttle on " + target + ": it declares limits for plan "
                    + limits.get(0).plan() + " but none for calls on no plan; add a @Throttle without plan");
        }
        return new TargetConfig(target, enabled, report, overrides.leases(), List.copyOf(limits));
    }

    /** The longest a call of this target may wait for its turn: the largest {@code maxWaitMillis} of its limits. */
    public long maxWaitMillis() {
        return limits.stream().mapToLong(LimitConfig::maxWaitMillis).max().orElse(0);
    }

    /** The plans this target declares limits for, each once. */
    public List<String> plans() {
        return limits.stream().map(LimitConfig::plan).filter(p -> !p.isEmpty()).distinct().toList();
    }

    /** Reads the members of one target's limits, each as overridden or as annotated. */
    private record Overrides(Config config, String cls, String method, String target) {

        boolean enabled() {
            return targetChoice("enabled", "true", "true", "false").equals("true");
        }

        /**
         * {@code …/Throttle/leases=false}: this target's calls never take from a lease ({@code throttle.leases}). Also
         * {@code off} and {@code auto}, the values of {@code throttle.leases}: an environment variable
         * {@code THROTTLE_LEASES} names both keys.
         */
        boolean leases() {
            return List.of("true", "auto").contains(targetChoice("leases", "true", "true", "false", "auto", "off"));
        }

        boolean report(boolean byDefault) {
            return targetChoice("mode", byDefault ? "report" : "enforce", "enforce", "report").equals("report");
        }

        /** A setting of the whole target ({@code <class>/<method>/Throttle/<name>}, ...), one of {@code allowed}. */
        private String targetChoice(String name, String dflt, String... allowed) {
            for (String key : List.of(cls + "/" + method + "/" + ANN + "/" + name, cls + "/" + ANN + "/" + name, ANN + "/" + name)) {
                Optional<String> v = config.getOptionalValue(key, String.class);
                if (v.isPresent()) {
                    String s = v.get().trim().toLowerCase(Locale.ROOT);
                    if (!List.of(allowed).contains(s)) {
                        throw new InvalidThrottleException("Invalid " + key + "=" + v.get() + " (for " + target + "): must be "
                                + String.join(" or ", allowed));
                    }
                    return s;
                }
            }
            return dflt;
        }

        LimitConfig limit(Throttle a, int index, int count) {
            String where = target + (count > 1 ? " (limit " + index + ")" : "");
            Member m = new Member(index, where);
            return new LimitConfig(target, index, count, m.number("limit", a.limit()), m.number("duration", a.duration()),
                    m.number("precision", a.precision()), m.unit(a.unit()), m.number("weight", a.weight()),
                    m.override("name").map(e -> e.getValue().trim()).orElse(a.name()), m.keys(a.key()),
                    m.override("plan").map(e -> e.getValue().trim()).orElse(a.plan()), m.weigher(a.weigher()),
                    m.bool("skipSuccessful", a.skipSuccessful()), m.bool("inFlight", a.inFlight()),
                    m.number("maxWaitMillis", a.maxWaitMillis()));
        }

        /** One member of one limit. */
        private final class Member {
            private final int index;
            private final String where;

            Member(int index, String where) {
                this.index = index;
                this.where = where;
            }

            Optional<Map.Entry<String, String>> override(String member) {
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
                        throw invalid(e, member + " must be a whole number");
                    }
                }).orElse(annotated);
            }

            ChronoUnit unit(ChronoUnit annotated) {
                return override("unit").map(e -> {
                    try {
                        return ChronoUnit.valueOf(e.getValue().trim().toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException ex) {
                        throw invalid(e, "unit must be one of " + LimitConfig.UNITS);
                    }
                }).orElse(annotated);
            }

            boolean bool(String member, boolean annotated) {
                return override(member).map(e -> switch (e.getValue().trim().toLowerCase(Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default -> throw invalid(e, member + " must be true or false");
                }).orElse(annotated);
            }

            @SuppressWarnings("unchecked")
            Class<? extends ThrottleWeight> weigher(Class<? extends ThrottleWeight> annotated) {
                Optional<Map.Entry<String, String>> o = override("weigher");
                if (o.isEmpty()) {
                    return annotated;
                }
                String name = o.get().getValue().trim();
                Class<?> c = name.isEmpty() ? ThrottleWeight.class : loadClass(name, o.get());
                if (c != ThrottleWeight.class && (!ThrottleWeight.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers()))) {
                    throw invalid(o.get(), name + " is not a concrete " + ThrottleWeight.class.getName());
                }
                return (Class<? extends ThrottleWeight>) c;
            }

            @SuppressWarnings("unchecked")
            List<Class<? extends ThrottleKey>> keys(Class<? extends ThrottleKey>[] annotated) {
                Optional<Map.Entry<String, String>> o = override("key");
                if (o.isEmpty()) {
                    return List.of(annotated);
                }
                List<Class<? extends ThrottleKey>> list = new ArrayList<>();
                for (String name : o.get().getValue().split(",")) {
                    if (name.isBlank()) {
                        continue;
                    }
                    Class<?> c = keyClass(name.trim(), o.get());
                    if (!ThrottleKey.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers())) {
                        throw invalid(o.get(), name.trim() + " is not a concrete " + ThrottleKey.class.getName());
                    }
                    list.add((Class<? extends ThrottleKey>) c);
                }
                return List.copyOf(list);
            }

            private Class<?> keyClass(String name, Map.Entry<String, String> entry) {
                switch (name) {
                    case "ClientAddress", "ThrottleKey.ClientAddress" -> {
                        return ThrottleKey.ClientAddress.class;
                    }
                    case "User", "ThrottleKey.User" -> {
                        return ThrottleKey.User.class;
                    }
                    case "ApiKey", "ThrottleKey.ApiKey" -> {
                        return ThrottleKey.ApiKey.class;
                    }
                    case "Everyone", "ThrottleKey.Everyone" -> {
                        return ThrottleKey.Everyone.class;
                    }
                    default -> {
                        return loadClass(name, entry);
                    }
                }
            }

            private Class<?> loadClass(String name, Map.Entry<String, String> entry) {
                ClassLoader loader = Optional.ofNullable(Thread.currentThread().getContextClassLoader())
                        .orElse(TargetConfig.class.getClassLoader());
                try {
                    return Class.forName(name, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    throw invalid(entry, "no class " + name);
                }
            }

            private InvalidThrottleException invalid(Map.Entry<String, String> entry, String why) {
                return new InvalidThrottleException("Invalid " + entry.getKey() + "=" + entry.getValue() + " (for " + where + "): " + why);
            }
        }
    }
}
