package it.throttle.scenarios;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of a Prometheus text exposition (format 0.0.4), parsed exactly: each sample's name, every
 * label with its unescaped value, and the value. A line that is not a comment and not a well-formed sample
 * is an error, never skipped.
 */
public final class PrometheusText {

    /** One sample line: {@code name{label="value",...} value [timestamp]}. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    public static PrometheusText parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            try {
                samples.add(sample(l));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("not a Prometheus sample: " + line, e);
            }
        }
        return new PrometheusText(samples);
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The samples named exactly {@code name}. */
    public List<Sample> named(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /** The value of the one sample with exactly this name and these labels, which must be there. */
    public double required(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels)).toList();
        if (found.size() != 1) {
            throw new AssertionError((found.isEmpty() ? "no sample " : "several samples ") + name + labels
                    + "; samples named so: " + named(name));
        }
        return found.get(0).value();
    }

    /**
     * The value of the one sample named {@code name} whose labels are exactly {@code labels}; 0 when there is
     * none (a counter not created yet), an error when there are several.
     */
    public double value(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels)).toList();
        if (found.size() > 1) {
            throw new AssertionError("several samples " + name + labels + ": " + found);
        }
        return found.isEmpty() ? 0 : found.get(0).value();
    }

    private static Sample sample(String line) {
        int i = 0;
        int n = line.length();
        while (i < n && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        String name = line.substring(0, i);
        if (!name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
            throw new IllegalArgumentException("bad metric name '" + name + "'");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && line.charAt(i) == '{') {
            i++;
            while (true) {
                i = skipSpaces(line, i);
                if (line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                String label = line.substring(i, eq).strip();
                if (!label.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                    throw new IllegalArgumentException("bad label name '" + label + "'");
                }
                i = skipSpaces(line, eq + 1);
                if (line.charAt(i) != '"') {
                    throw new IllegalArgumentException("label " + label + " has no quoted value");
                }
                i++;
                StringBuilder value = new StringBuilder();
                for (char c = line.charAt(i); c != '"'; c = line.charAt(i)) {
                    if (c == '\\') {
                        char e = line.charAt(++i);
                        value.append(switch (e) {
                            case 'n' -> '\n';
                            case '\\' -> '\\';
                            case '"' -> '"';
                            default -> throw new IllegalArgumentException("bad escape \\" + e);
                        });
                    } else {
                        value.append(c);
                    }
                    i++;
                }
                i++;
                if (labels.put(label, value.toString()) != null) {
                    throw new IllegalArgumentException("label " + label + " twice");
                }
                i = skipSpaces(line, i);
                if (line.charAt(i) == ',') {
                    i++;
                } else if (line.charAt(i) != '}') {
                    throw new IllegalArgumentException("expected , or } at " + i);
                }
            }
        }
        String[] rest = line.substring(i).strip().split("\\s+");
        if (rest.length < 1 || rest.length > 2 || rest[0].isEmpty()) {
            throw new IllegalArgumentException("expected a value and an optional timestamp");
        }
        return new Sample(name, Map.copyOf(labels), number(rest[0]));
    }

    private static double number(String s) {
        return switch (s) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(s);
        };
    }

    private static int skipSpaces(String line, int i) {
        while (line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }
}
