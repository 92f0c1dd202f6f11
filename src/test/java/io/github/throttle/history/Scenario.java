package io.github.throttle.history;

import io.github.throttle.config.ThrottleSettings;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * One history's configuration, drawn from a seed: the limits of each method of {@link HistoryApi} (windows short
 * enough to turn several times in a history, fixed and sliding, weights 1–3, bucket names shared between methods so
 * that one window of one bucket is counted by limits of several methods, with other limits or precisions), how many
 * instances call, each one's clock skew, and whether hot keys are leased.
 */
record Scenario(long seed, List<Target> targets, long[] skews, boolean leases, boolean clientTime, boolean resets) {

    /** How many limits each method of {@link HistoryApi#METHODS} declares. */
    private static final int[] LIMITS = {1, 2, 3, 1};

    /** One limit as the configuration sets it; a call that does not fit may wait up to {@code maxWaitMillis}. */
    record LimitSpec(String bucket, long limit, long durationMillis, long precisionMillis, long weight, long maxWaitMillis) {
        WindowCheck.Window window() {
            return new WindowCheck.Window(limit, durationMillis, precisionMillis);
        }
    }

    /** A method of {@link HistoryApi} and its limits, in declaration order. */
    record Target(String method, List<LimitSpec> limits) {
    }

    private static final long[] DURATIONS = {200, 400, 500, 1000};
    private static final long[] DIVISORS = {1, 1, 2, 4, 5};
    private static final String[] BUCKETS = {"shared-a", "shared-b"};

    static Scenario draw(long seed) {
        Random r = new Random(seed);
        List<Target> targets = new ArrayList<>();
        // sometimes every limit of a method may wait (the member is the target's: the same on each limit)
        for (int m = 0; m < HistoryApi.METHODS.length; m++) {
            long maxWait = r.nextInt(4) == 0 ? 50 + r.nextInt(400) : 0;
            List<LimitSpec> limits = new ArrayList<>();
            Set<String> windows = new HashSet<>();
            if (HistoryApi.METHODS[m].equals("alike") && r.nextInt(3) != 0) {
                // one's limit, in one's bucket, in another precision (or the same): one window in two shapes
                LimitSpec one = targets.get(0).limits().get(0);
                long precision = one.durationMillis() / DIVISORS[r.nextInt(DIVISORS.length)];
                limits.add(new LimitSpec(one.bucket(), one.limit(), one.durationMillis(), precision, one.weight(), maxWait));
            }
            while (limits.size() < LIMITS[m]) {
                long duration = DURATIONS[r.nextInt(DURATIONS.length)];
                long precision = duration / DIVISORS[r.nextInt(DIVISORS.length)];
                String bucket = r.nextInt(3) == 0 ? "own-" + HistoryApi.METHODS[m] : BUCKETS[r.nextInt(BUCKETS.length)];
                // one target counts one window of one bucket once
                if (!windows.add(bucket + "/" + duration + "/" + precision)) {
                    continue;
                }
                long limit = 2 + r.nextInt(11);
                long weight = 1 + r.nextInt(Math.min(3, (int) limit));
                limits.add(new LimitSpec(bucket, limit, duration, precision, weight, maxWait));
            }
            targets.add(new Target(HistoryApi.METHODS[m], limits));
        }
        int instances = 1 + r.nextInt(3);
        boolean clientTime = r.nextBoolean();
        long[] skews = new long[instances];
        for (int i = 1; i < instances; i++) {
            skews[i] = r.nextInt(4001) - 2000;
        }
        return new Scenario(seed, targets, skews, r.nextBoolean(), clientTime, r.nextInt(3) == 0);
    }

    /** The skew of the clock furthest ahead. */
    long furthestAhead() {
        return java.util.Arrays.stream(skews).max().orElse(0);
    }

    /** The configuration every instance reads; {@code redisUri} null for the embedded store, which leases nothing. */
    List<String> settings(String redisUri) {
        List<String> kv = new ArrayList<>(List.of(ThrottleSettings.TIME_SOURCE, clientTime ? "client" : "redis",
                ThrottleSettings.LEASES, leases && redisUri != null ? "auto" : "off", ThrottleSettings.LEASES_MIN_RATE, "20",
                ThrottleSettings.LEASES_PERIOD, "100ms", ThrottleSettings.REDIS_TIMEOUT, "5s"));
        if (redisUri != null) {
            kv.addAll(List.of(ThrottleSettings.REDIS_URI, redisUri));
        }
        for (Target t : targets) {
            for (int i = 0; i < t.limits().size(); i++) {
                LimitSpec l = t.limits().get(i);
                String p = HistoryApi.class.getName() + "/" + t.method() + "/Throttle/" + i + "/";
                kv.addAll(List.of(p + "name", l.bucket(), p + "limit", Long.toString(l.limit()), p + "duration",
                        Long.toString(l.durationMillis()), p + "precision", Long.toString(l.precisionMillis()), p + "unit", "MILLIS",
                        p + "weight", Long.toString(l.weight()), p + "maxWaitMillis", Long.toString(l.maxWaitMillis())));
            }
        }
        return kv;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("seed=" + seed + " instances=" + skews.length + " skews=" + java.util.Arrays.toString(skews)
                + " leases=" + leases + " time-source=" + (clientTime ? "client" : "redis") + " resets=" + resets);
        for (Target t : targets) {
            s.append("\n  ").append(t.method()).append(": ").append(t.limits());
        }
        return s.toString();
    }
}
