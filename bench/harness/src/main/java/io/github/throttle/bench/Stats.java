package io.github.throttle.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Figures per (name, concurrency) over rounds; medians. */
final class Stats {

    private final Map<String, List<Double>> values = new LinkedHashMap<>();

    void add(String name, int c, double v) {
        values.computeIfAbsent(name + "@" + c, k -> new ArrayList<>()).add(v);
    }

    /** Adds every figure of {@code other}, after those held. */
    void addAll(Stats other) {
        other.values.forEach((k, v) -> values.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
    }

    List<Double> all(String name, int c) {
        return values.getOrDefault(name + "@" + c, List.of());
    }

    double median(String name, int c) {
        return median(all(name, c));
    }

    /** Median over rounds of the ratio a/b, both measured in the same round. */
    double ratio(String a, String b, int c) {
        List<Double> x = all(a, c);
        List<Double> y = all(b, c);
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            r.add(x.get(i) / y.get(i));
        }
        return median(r);
    }

    /** Median over rounds of a - b. */
    double difference(String a, String b, int c) {
        List<Double> x = all(a, c);
        List<Double> y = all(b, c);
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            r.add(x.get(i) - y.get(i));
        }
        return median(r);
    }

    /** The figure of the latest round. */
    double last(String name, int c) {
        List<Double> v = all(name, c);
        return v.get(v.size() - 1);
    }

    static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    static String rate(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        if (v >= 10_000) {
            return String.format(Locale.ROOT, "%.1f k/s", v / 1000);
        }
        if (v >= 1_000) {
            return String.format(Locale.ROOT, "%.2f k/s", v / 1000);
        }
        return String.format(Locale.ROOT, "%.0f /s", v);
    }

    static String x(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "–" : String.format(Locale.ROOT, "%.2f×", v);
    }

    static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
