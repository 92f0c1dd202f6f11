package io.github.throttle.limiter;

import io.github.throttle.Outcome;
import io.github.throttle.ThrottleKey;
import io.github.throttle.ThrottlePlan;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.config.LimitConfig;
import io.github.throttle.config.PlanLists;
import io.github.throttle.config.ReturnTypes;
import io.github.throttle.config.TargetConfig;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.Leases;
import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.metrics.Meters;
import org.eclipse.microprofile.config.Config;

import java.lang.reflect.Method;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    private final Function<Class<?>, Object> instances;
    private final Predicate<Method> httpEndpoints;
    private final boolean reportByDefault;
    private final boolean leases;
    private final Meters meters;
    private final InstantSource clock;
    private final Plans plans;
    /** One report log per bucket, shared by the targets that count in it. */
    private final Map<String, ReportLog> reportLogs = new HashMap<>();
    /** One instance per resolver class, shared by every target. */
    private final Map<Class<? extends ThrottleKey>, TaggedResolver> resolvers = new HashMap<>();
    /** One instance per weigher class, shared by every target. */
    private final Map<Class<? extends ThrottleWeight>, ThrottleWeight> weighers = new HashMap<>();
    private final ConcurrentHashMap<TargetId, Target> built = new ConcurrentHashMap<>();
    /** The heads of the buckets whose weight can come back: a target that gives successes back counts in them. */
    private final Set<String> givingBack = ConcurrentHashMap.newKeySet();
    /** The rate limits replaced while running, by bucket and plan. */
    private volatile Map<BucketPlan, List<Limit>> overrides = Map.of();

    /**
     * Targets with no plan bean, in enforce mode, counted nowhere.
     *
     * @param instances     makes the instance of a {@link ThrottleKey} or {@link ThrottleWeight} class (a CDI
     *                      bean or a new instance); null when it can do neither
     * @param httpEndpoints which methods the HTTP filter throttles (the CDI interceptor leaves them)
     */
    public Targets(Config config, KeyCodec codec, Function<Class<?>, Object> instances, Predicate<Method> httpEndpoints) {
        this(config, codec, instances, httpEndpoints, false, false, Meters.NONE, InstantSource.system(), ThrottleKey.ApiKey.DEFAULT_HEADER,
                Optional.empty());
    }

    /**
     * @param reportByDefault {@code throttle.mode=report}
     * @param leases          {@code throttle.leases=auto}
     * @param meters          where calls are counted
     * @param clock           paces the report-mode log
     * @param keyHeader       the header {@code key:} entries of plan lists are compared with
     * @param planBean        the application's {@link ThrottlePlan}, if it has one
     * @throws InvalidThrottleException naming the key of a bad {@code throttle.plans.*} list
     */
    public Targets(Config config, KeyCodec codec, Function<Class<?>, Object> instances, Predicate<Method> httpEndpoints,
                   boolean reportByDefault, boolean leases, Meters meters, InstantSource clock, String keyHeader,
                   Optional<ThrottlePlan> planBean) {
        this.reportByDefault = reportByDefault;
        this.leases = leases;
        this.meters = meters;
        this.clock = clock;
        this.config = config;
        this.codec = codec;
        this.instances = instances;
        this.httpEndpoints = httpEndpoints;
        this.plans = new Plans(config, keyHeader, planBean);
    }

    public Plans plans() {
        return plans;
    }

    /** Whether weight can come back in a bucket one of the call's keys is in. */
    boolean givesBackIn(StoreCall call) {
        if (givingBack.isEmpty()) {
            return false;
        }
        for (int k = 0; k < call.keyCount(); k++) {
            for (String head : givingBack) {
                if (call.key(k).startsWith(head)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Notes that weight can come back in the bucket of {@code head}; whether that is news. */
    boolean givesBackFrom(String head) {
        return givingBack.add(head);
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
        boolean httpEndpoint = httpEndpoints.test(method);
        // the HTTP filter holds seats until the response is written, whatever the method returned
        if (!httpEndpoint && target.limits().stream().anyMatch(LimitConfig::inFlight)) {
            ReturnTypes.checkSeatsFollowed(target.target(), method);
        }
        String bucket = target.limits().isEmpty() ? target.target() : target.limits().get(0).bucket();
        ReportLog reportLog = reportLogs.computeIfAbsent(bucket, b -> new ReportLog(b, clock));
        Target.Sets sets = limitSets(target, bucket, reportLog);
        plans.declare(target.plans());
        return new Target(target, method, target.target(), target.enabled(), httpEndpoint, target.report(), bucket,
                reportLog, sets.defaults(), sets.byPlan(), counters(bucket, PlanLists.UNLIMITED, Outcome.UNLIMITED),
                counters(bucket, PlanLists.BLOCKED, Outcome.BLOCKED, Outcome.WOULD_DENY));
    }

    /** The limit sets of a target as the overrides in force make them: its defaults, and those of each plan. */
    private Target.Sets limitSets(TargetConfig target, String bucket, ReportLog reportLog) {
        LimitSet defaults = limitSet(target, null, bucket, reportLog);
        Map<String, LimitSet> byPlan = new HashMap<>();
        for (String plan : target.plans()) {
            byPlan.put(plan, limitSet(target, plan, bucket, reportLog));
        }
        return new Target.Sets(defaults, byPlan);
    }

    /**
     * The limits of a target on {@code plan} ({@code ""}: its default limits) as {@code overrides} leave them: the
     * rate limits counting in an overridden bucket are replaced by the override's, each taking the bucket,
     * identities, weight and name of the limit it replaces (several replaced limits that differ in those give
     * one set of the override's each); in-flight limits stay.
     */
    private static List<LimitConfig> inForce(TargetConfig target, String plan, Map<BucketPlan, List<Limit>> overrides) {
        List<LimitConfig> limits = new ArrayList<>();
        Set<List<Object>> replaced = new java.util.HashSet<>();
        for (LimitConfig c : target.limits()) {
            if (!c.plan().equals(plan)) {
                continue;
            }
            List<Limit> rates = c.inFlight() ? null : overrides.get(new BucketPlan(c.bucket(), plan));
            if (rates == null) {
                limits.add(c);
            } else if (replaced.add(List.of(c.key(), c.weight(), c.weigher(), c.skipSuccessful(), c.name()))) {
                for (Limit rate : rates) {
                    limits.add(c.withRate(rate));
                }
            }
        }
        return limits;
    }

    /** The limits of {@code target} on {@code plan} (null: its default limits), with their resolvers and weighers. */
    private LimitSet limitSet(TargetConfig target, String plan, String bucket, ReportLog reportLog) {
        List<LimitSet.Charged> charged = new ArrayList<>();
        for (LimitConfig c : inForce(target, plan == null ? "" : plan, overrides)) {
            String head = codec.bucketHead(c.bucket());
            if (c.skipSuccessful()) {
                givingBack.add(head);
            }
            List<TaggedResolver> resolvers = new ArrayList<>(c.key().size());
            for (Class<? extends ThrottleKey> type : c.key()) {
                resolvers.add(resolver(type, c));
            }
            charged.add(new LimitSet.Charged(c.toLimit(), c.bucket(), head, c.weight(), c.weighed() ? weigher(c) : null, List.copyOf(resolvers),
                    c.skipSuccessful()));
        }
        Map<Outcome, Meters.Counter> calls = counters(bucket, PlanLists.shown(plan), Outcome.ALLOWED,
                Outcome.DENIED, Outcome.OVERWEIGHT, Outcome.WOULD_DENY, Outcome.FAILURE_ALLOWED, Outcome.FAILURE_DENIED,
                Outcome.LOCAL_ALLOWED, Outcome.LOCAL_DENIED);
        // report mode never waits: it records what enforce would and proceeds at once; a target that never waits
        // publishes no wait timer
        long maxWait = target.report() ? 0 : target.maxWaitMillis();
        // report mode's figures are never leased, nor the calls of a target that opted out
        Leases.Tally leasing = leases && !target.report() && target.leases() ? leaseTally(bucket) : null;
        return new LimitSet(plan, charged, codec, calls, reportLog, maxWait, maxWait > 0 ? meters.waits(bucket) : nanos -> { }, leasing);
    }

    /** The meters of a bucket's leases. */
    private Leases.Tally leaseTally(String bucket) {
        Meters.Counter taken = meters.leases(bucket);
        Meters.Amount givenBack = meters.leaseUnits(bucket, Meters.GIVEN_BACK);
        Meters.Amount stranded = meters.leaseUnits(bucket, Meters.STRANDED);
        return new Leases.Tally() {
            @Override
            public void taken() {
                taken.increment();
            }

            @Override
            public void givenBack(long units) {
                givenBack.add(units);
            }

            @Override
            public void stranded(long units) {
                stranded.add(units);
            }
        };
    }

    /** The call counters of these outcomes, one per tag (an overweight call counts as denied). */
    private Map<Outcome, Meters.Counter> counters(String bucket, String plan, Outcome... outcomes) {
        Map<String, Meters.Counter> byTag = new HashMap<>();
        Map<Outcome, Meters.Counter> calls = new EnumMap<>(Outcome.class);
        for (Outcome o : outcomes) {
            calls.put(o, byTag.computeIfAbsent(o.tag(), tag -> meters.calls(bucket, plan, tag)));
        }
        return calls;
    }

    /** The weigher of a limit: one instance per class, shared by every target. */
    private ThrottleWeight weigher(LimitConfig c) {
        return weighers.computeIfAbsent(c.weigher(), type -> (ThrottleWeight) instance(type, c, "weigher"));
    }

    /** A resolver of a limit: one instance per class, shared by every target. */
    private TaggedResolver resolver(Class<? extends ThrottleKey> type, LimitConfig c) {
        return resolvers.computeIfAbsent(type, t -> new TaggedResolver((ThrottleKey) instance(t, c, "key")));
    }

    /** The instance of a class named by {@code member} of {@code c}: its CDI bean, or a new one. */
    private Object instance(Class<?> type, LimitConfig c, String member) {
        Object instance;
        try {
            instance = instances.apply(type);
        } catch (RuntimeException e) {
            throw c.invalid(member, type.getName(), "cannot be created: " + e);
        }
        if (instance == null) {
            throw c.invalid(member, type.getName(), "is neither a CDI bean nor a class with a public no-argument constructor");
        }
        return instance;
    }

    /** The methods served over HTTP, throttled, with the resource class that serves each. */
    public Map<Method, Class<?>> servedOverHttp() {
        Map<Method, Class<?>> served = new HashMap<>();
        for (Target t : built.values()) {
            if (t.resourceClass() != null) {
                served.put(t.method(), t.resourceClass());
            }
        }
        return served;
    }

    /** The configuration of every target built so far. */
    public List<TargetConfig> configs() {
        return built.values().stream().map(Target::config).toList();
    }

    /** Puts these overrides in force on every target, built or to be built. */
    public synchronized void override(Map<BucketPlan, List<Limit>> inForce) {
        if (inForce.equals(overrides)) {
            return;
        }
        overrides = inForce;
        for (Target t : built.values()) {
            t.limitSets(limitSets(t.config(), t.bucket(), reportLogs.get(t.bucket())));
        }
    }

    /** Whether an override is in force for {@code key}. */
    public boolean overridden(BucketPlan key) {
        return overrides.containsKey(key);
    }

    /**
     * The limits in force by bucket and plan ({@code ""}: the default limits), each once, in the order targets
     * declare them.
     */
    public Map<BucketPlan, List<Limit>> limitsInForce() {
        Map<BucketPlan, java.util.LinkedHashSet<Limit>> all = new java.util.TreeMap<>(
                java.util.Comparator.comparing(BucketPlan::bucket).thenComparing(BucketPlan::plan));
        Map<BucketPlan, List<Limit>> now = overrides;
        for (Target t : built.values()) {
            List<String> plans = new ArrayList<>(t.config().plans());
            plans.add(0, "");
            for (String plan : plans) {
                for (LimitConfig c : inForce(t.config(), plan, now)) {
                    all.computeIfAbsent(new BucketPlan(c.bucket(), plan), k -> new java.util.LinkedHashSet<>()).add(c.toLimit());
                }
            }
        }
        Map<BucketPlan, List<Limit>> result = new java.util.LinkedHashMap<>();
        all.forEach((k, v) -> result.put(k, List.copyOf(v)));
        return result;
    }

    private record TargetId(Class<?> beanClass, Method method) {
    }
}
