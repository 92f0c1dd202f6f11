package it.throttle.liberty;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the OpenTelemetry SDK's logging metric exporter ({@code otel.metrics.exporter=logging}) wrote to
 * messages.log: one line per metric and export, {@code metric: ImmutableMetricData{..., name=throttle.calls,
 * ..., type=LONG_SUM, data=ImmutableSumData{points=[ImmutableLongPointData{..., attributes={bucket="...",
 * plan="...", result="..."}, value=2, ...}, ...], monotonic=true, aggregationTemporality=CUMULATIVE}}}.
 */
final class OtelLoggingExport {

    private static final Pattern POINT = Pattern.compile(
            "ImmutableLongPointData\\{startEpochNanos=\\d+, epochNanos=\\d+, attributes=\\{((?:\\w+=\"(?:[^\"\\\\]|\\\\.)*\"(?:, )?)*)}, value=(\\d+), ");
    private static final Pattern ATTRIBUTE = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private OtelLoggingExport() {
    }

    /**
     * The points of the last export of the monotonic cumulative sum {@code name}: each point's attributes and
     * value; empty when no export of it is in the log yet.
     */
    static Optional<Map<Map<String, String>, Long>> lastSum(String messages, String name) {
        List<String> exports = messages.lines()
                .filter(l -> l.contains("LoggingMetricExporter") && l.contains(", name=" + name + ", "))
                .toList();
        if (exports.isEmpty()) {
            return Optional.empty();
        }
        String last = exports.get(exports.size() - 1);
        if (!last.contains(", type=LONG_SUM, ") || !last.contains("], monotonic=true, aggregationTemporality=CUMULATIVE}")) {
            throw new AssertionError(name + " is not exported as a monotonic cumulative sum: " + last);
        }
        Map<Map<String, String>, Long> points = new LinkedHashMap<>();
        Matcher p = POINT.matcher(last);
        while (p.find()) {
            Map<String, String> attributes = new HashMap<>();
            Matcher a = ATTRIBUTE.matcher(p.group(1));
            while (a.find()) {
                attributes.put(a.group(1), a.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
            }
            if (points.put(Map.copyOf(attributes), Long.parseLong(p.group(2))) != null) {
                throw new AssertionError("two points with the attributes " + attributes + ": " + last);
            }
        }
        return Optional.of(points);
    }
}
