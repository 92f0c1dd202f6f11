package io.github.throttle.config;

import io.github.throttle.engine.FailurePolicy;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.redis.RedisUris;
import org.eclipse.microprofile.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code throttle.*} settings, read and checked once at start-up. Every bad value fails with a message
 * naming its key; a {@code throttle.*} property that is not one of them gets a warning naming it.
 */
public record ThrottleSettings(
        boolean enabled,
        Optional<String> redisUri,
        boolean redisCluster,
        Duration redisTimeout,
        int replicaAcks,
        String keyPrefix,
        boolean clientTime,
        FailurePolicy.Kind onStoreFailure,
        double localShare,
        HeaderStyle headers,
        List<Cidr> trustedProxies,
        String keyHeader,
        boolean report,
        String metrics,
        int denyCacheSize,
        boolean adminEnabled,
        String adminRole,
        boolean manualClock,
        boolean leases,
        long leaseMinRate,
        Duration leasePeriod) {

    /** Which rate-limit fields responses carry. */
    public enum HeaderStyle {
        /** {@code RateLimit-Policy} and {@code RateLimit} (draft-ietf-httpapi-ratelimit-headers). */
        IETF,
        /** {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining}, {@code X-RateLimit-Reset}. */
        X_RATELIMIT,
        /** None (a denied call still gets {@code Retry-After}). */
        NONE
    }

    public static final String ENABLED = "throttle.enabled";
    public static final String REDIS_URI = "throttle.redis.uri";
    public static final String REDIS_CLUSTER = "throttle.redis.cluster";
    public static final String REDIS_TIMEOUT = "throttle.redis.timeout";
    /** Replicas that must hold a decision before its caller is told: {@code WAIT} after each run that wrote. */
    public static final String REPLICA_ACKS = "throttle.redis.replica-acks";
    public static final String KEY_PREFIX = "throttle.key-prefix";
    public static final String TIME_SOURCE = "throttle.time-source";
    public static final String ON_STORE_FAILURE = "throttle.on-store-failure";
    public static final String LOCAL_SHARE = "throttle.local.share";
    public static final String HEADERS = "throttle.headers";
    public static final String TRUSTED_PROXIES = "throttle.forwarded.trusted-proxies";
    public static final String KEY_HEADER = "throttle.key.header";
    public static final String MODE = "throttle.mode";
    public static final String METRICS = "throttle.metrics";
    public static final String DENY_CACHE_SIZE = "throttle.deny-cache.size";
    public static final String ADMIN_ENABLED = "throttle.admin.enabled";
    public static final String ADMIN_ROLE = "throttle.admin.role";
    /** {@code system} (the default) or {@code manual}: time stands still until a test moves it (ThrottleClock). */
    public static final String CLOCK = "throttle.clock";
    /** {@code off} (the default) or {@code auto}: lease part of a hot key's quota (Redis stores only). */
    public static final String LEASES = "throttle.leases";
    /** Calls a second of one key on one instance that make it hot (200). */
    public static final String LEASES_MIN_RATE = "throttle.leases.min-rate";
    /** The longest a lease lives (250ms). */
    public static final String LEASES_PERIOD = "throttle.leases.period";

    /** Every key Throttle reads. */
    public static final List<String> KEYS = List.of(ENABLED, REDIS_URI, REDIS_CLUSTER, REDIS_TIMEOUT, REPLICA_ACKS, KEY_PREFIX,
            TIME_SOURCE, ON_STORE_FAILURE, LOCAL_SHARE, HEADERS, TRUSTED_PROXIES, KEY_HEADER, MODE, METRICS, DENY_CACHE_SIZE,
            ADMIN_ENABLED, ADMIN_ROLE, CLOCK, LEASES, LEASES_MIN_RATE, LEASES_PERIOD);

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    public static ThrottleSettings read(Config config) {
        for (String unknown : unknownKeys(config.getPropertyNames())) {
            LOG.log(System.Logger.Level.WARNING, "Throttle does not know the property " + unknown
                    + " and ignores it; known: " + String.join(", ", KEYS));
        }
        boolean enabled = bool(config, ENABLED, true);
        Optional<String> uri = string(config, REDIS_URI).filter(s -> !s.isBlank()).map(String::trim);
        boolean cluster = bool(config, REDIS_CLUSTER, false);
        uri.ifPresent(u -> checkUri(u, cluster));
        Duration timeout = string(config, REDIS_TIMEOUT).map(v -> {
            try {
                return Durations.parse(v);
            } catch (IllegalArgumentException e) {
                throw invalid(REDIS_TIMEOUT, v, e.getMessage());
            }
        }).orElse(Duration.ofMillis(500));
        if (timeout.toMillis() < 1 || timeout.toMillis() > 60_000) {
            throw invalid(REDIS_TIMEOUT, timeout.toMillis() + "ms", "must be between 1 ms and 60 s");
        }
        int replicaAcks = string(config, REPLICA_ACKS).map(v -> {
            try {
                int n = Integer.parseInt(v.trim());
                if (n >= 0 && n <= 100) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw invalid(REPLICA_ACKS, v, "must be a whole number from 0 (do not wait for replicas) to 100");
        }).orElse(0);
        if (replicaAcks > 0 && uri.isEmpty()) {
            throw invalid(REPLICA_ACKS, Integer.toString(replicaAcks), "replicas acknowledge decisions of a Redis store only: set "
                    + REDIS_URI + ", or leave " + REPLICA_ACKS + " unset");
        }
        String prefix = string(config, KEY_PREFIX).map(String::trim).orElse("throttle");
        KeyCodec.checkPrefix(prefix).ifPresent(why -> {
            throw invalid(KEY_PREFIX, prefix, why);
        });
        boolean client = choice(config, TIME_SOURCE, "redis", "redis", "client").equals("client");
        FailurePolicy.Kind onFailure = FailurePolicy.Kind.valueOf(
                choice(config, ON_STORE_FAILURE, "allow", "allow", "deny", "local").toUpperCase(Locale.ROOT));
        double share = string(config, LOCAL_SHARE).map(v -> {
            try {
                double d = Double.parseDouble(v.trim());
                if (d > 0 && d <= 1) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw invalid(LOCAL_SHARE, v, "must be a number above 0 and at most 1 (this instance's share of each limit)");
        }).orElse(1.0);
        HeaderStyle headers = switch (choice(config, HEADERS, "ietf", "ietf", "x-ratelimit", "none")) {
            case "x-ratelimit" -> HeaderStyle.X_RATELIMIT;
            case "none" -> HeaderStyle.NONE;
            default -> HeaderStyle.IETF;
        };
        List<Cidr> proxies = new ArrayList<>();
        for (String c : string(config, TRUSTED_PROXIES).orElse("").split(",")) {
            if (!c.isBlank()) {
                try {
                    proxies.add(Cidr.parse(c));
                } catch (IllegalArgumentException e) {
                    throw invalid(TRUSTED_PROXIES, c.trim(), e.getMessage());
                }
            }
        }
        String header = string(config, KEY_HEADER).map(String::trim).orElse("X-API-Key");
        if (header.isEmpty() || !header.chars().allMatch(ch -> ch > 32 && ch < 127 && "()<>@,;:\\\"/[]?={}".indexOf(ch) < 0)) {
            throw invalid(KEY_HEADER, header, "must be an HTTP header name");
        }
        boolean report = choice(config, MODE, "enforce", "enforce", "report").equals("report");
        String metrics = choice(config, METRICS, "auto", "auto", "micrometer", "mp-metrics", "otel", "none");
        int denyCache = string(config, DENY_CACHE_SIZE).map(v -> {
            try {
                int n = Integer.parseInt(v.trim());
                if (n >= 0 && n <= 10_000_000) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw invalid(DENY_CACHE_SIZE, v, "must be a whole number from 0 (off) to 10000000");
        }).orElse(10_000);
        boolean admin = bool(config, ADMIN_ENABLED, false);
        String role = string(config, ADMIN_ROLE).map(String::trim).orElse("throttle-admin");
        if (role.isEmpty()) {
            throw invalid(ADMIN_ROLE, role, "must name the role that may use the admin API");
        }
        boolean manual = choice(config, CLOCK, "system", "system", "manual").equals("manual");
        if (manual && uri.isPresent()) {
            throw invalid(CLOCK, "manual", "only the embedded store counts by a clock a test moves; a Redis store ("
                    + REDIS_URI + ") counts by its own time: leave " + REDIS_URI + " unset in tests that move the clock");
        }
        boolean leases = choice(config, LEASES, "off", "off", "auto").equals("auto");
        if (leases && uri.isEmpty()) {
            throw invalid(LEASES, "auto", "leases are of a Redis store's quota: set " + REDIS_URI + ", or leave " + LEASES + " off");
        }
        long minRate = string(config, LEASES_MIN_RATE).map(v -> {
            try {
                long n = Long.parseLong(v.trim());
                if (n >= 1 && n <= 1_000_000) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw invalid(LEASES_MIN_RATE, v, "must be a whole number of calls a second from 1 to 1000000");
        }).orElse(200L);
        Duration period = string(config, LEASES_PERIOD).map(v -> {
            try {
                Duration d = Durations.parse(v);
                if (d.toMillis() >= 10 && d.toMillis() <= 60_000) {
                    return d;
                }
            } catch (IllegalArgumentException e) {
                // reported below
            }
            throw invalid(LEASES_PERIOD, v, "must be a duration from 10 ms to 60 s");
        }).orElse(Duration.ofMillis(250));
        return new ThrottleSettings(enabled, uri, cluster, timeout, replicaAcks, prefix, client, onFailure, share, headers, List.copyOf(proxies), header,
                report, metrics, denyCache, admin, role, manual, leases, minRate, period);
    }

    private static void checkUri(String uri, boolean cluster) {
        try {
            RedisUris.parse(uri, cluster);
        } catch (IllegalArgumentException e) {
            throw invalid(REDIS_URI, RedisUris.redact(uri), e.getMessage());
        }
    }

    /** The names among {@code names} that look like Throttle settings but are not one (a typo, say). */
    public static List<String> unknownKeys(Iterable<String> names) {
        List<String> unknown = new ArrayList<>();
        List<String> known = KEYS.stream().map(ThrottleSettings::comparable).toList();
        for (String name : names) {
            // a server may list an environment variable under a name of its own (THROTTLE_ON_STORE_FAILURE as
            // throttle.on.store.failure): it names a known key when it matches one but for dots and dashes
            if (name.startsWith("throttle.") && !known.contains(comparable(name)) && !comparable(name).startsWith(comparable(PlanLists.PREFIX))) {
                unknown.add(name);
            }
        }
        unknown.sort(null);
        return unknown;
    }

    private static String comparable(String key) {
        return key.toLowerCase(Locale.ROOT).replace('-', '.');
    }

    private static Optional<String> string(Config config, String key) {
        return config.getOptionalValue(key, String.class);
    }

    private static boolean bool(Config config, String key, boolean dflt) {
        return string(config, key).map(v -> switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, v, "must be true or false");
        }).orElse(dflt);
    }

    private static String choice(Config config, String key, String dflt, String... allowed) {
        String v = string(config, key).map(s -> s.trim().toLowerCase(Locale.ROOT)).orElse(dflt);
        for (String a : allowed) {
            if (a.equals(v)) {
                return v;
            }
        }
        throw invalid(key, v, "must be one of " + String.join(", ", allowed));
    }

    static InvalidThrottleException invalid(String key, String value, String why) {
        return new InvalidThrottleException("Invalid " + key + "=" + value + ": " + why);
    }
}
