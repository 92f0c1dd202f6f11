package it.throttle.lts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Prometheus text exposition (format 0.0.4) read exactly: every sample line becomes a metric name, its
 * labels (values unescaped) and its value. Comment lines are kept only for their {@code # TYPE}; any other
 * line that does not parse fails the test rather than being skipped.
 */
final class Exposition {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, String> types = new HashMap<>();

    static Exposition parse(String text) {
        Exposition e = new Exposition();
        for (String line : text.split("\r?\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("#")) {
                String[] parts = line.split(" ");
                if (parts.length >= 4 && parts[1].equals("TYPE")) {
                    e.types.put(parts[2], parts[3]);
                }
                continue;
            }
            try {
                e.samples.add(new Reader(line).sample());
            } catch (RuntimeException ex) {
                throw new AssertionError("not a sample line of the Prometheus text format: " + line, ex);
            }
        }
        return e;
    }

    /** The {@code # TYPE} of a metric family, if declared. */
    Optional<String> type(String family) {
        return Optional.ofNullable(types.get(family));
    }

    /** The samples named exactly {@code name}. */
    List<Sample> named(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /** The one sample with exactly this name and exactly these labels, if there is one. */
    Optional<Sample> find(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels)).toList();
        if (found.size() > 1) {
            throw new AssertionError("the same series twice: " + found);
        }
        return found.stream().findFirst();
    }

    /** The value of that sample; 0 when absent (a counter is made on first use). */
    double value(String name, Map<String, String> labels) {
        return find(name, labels).map(Sample::value).orElse(0.0);
    }

    /** The value of that sample, which must be there. */
    double required(String name, Map<String, String> labels) {
        return find(name, labels).orElseThrow(() -> new AssertionError("no sample " + name + labels + "; samples named so: "
                + named(name))).value();
    }

    /** A cursor over one sample line: {@code name{label="value",...} value [timestamp]}. */
    private static final class Reader {
        private final String line;
        private int at;

        Reader(String line) {
            this.line = line;
        }

        Sample sample() {
            String name = token("[a-zA-Z_:][a-zA-Z0-9_:]*");
            Map<String, String> labels = new HashMap<>();
            if (peek() == '{') {
                at++;
                while (peek() != '}') {
                    String label = token("[a-zA-Z_][a-zA-Z0-9_]*");
                    expect('=');
                    expect('"');
                    StringBuilder value = new StringBuilder();
                    for (char c = next(); c != '"'; c = next()) {
                        if (c == '\\') {
                            char escaped = next();
                            value.append(switch (escaped) {
                                case '\\' -> '\\';
                                case '"' -> '"';
                                case 'n' -> '\n';
                                default -> throw new IllegalArgumentException("unknown escape \\" + escaped);
                            });
                        } else {
                            value.append(c);
                        }
                    }
                    if (labels.put(label, value.toString()) != null) {
                        throw new IllegalArgumentException("label " + label + " given twice");
                    }
                    if (peek() == ',') {
                        at++;
                    } else if (peek() != '}') {
                        throw new IllegalArgumentException("expected ',' or '}' at " + at);
                    }
                }
                at++;
            }
            if (peek() != ' ') {
                throw new IllegalArgumentException("expected a space before the value at " + at);
            }
            String[] rest = line.substring(at).trim().split(" +");
            if (rest.length > 2) {
                throw new IllegalArgumentException("more than a value and a timestamp");
            }
            if (rest.length == 2) {
                Long.parseLong(rest[1]);
            }
            return new Sample(name, Map.copyOf(labels), number(rest[0]));
        }

        private String token(String pattern) {
            int start = at;
            while (at < line.length() && "{}=, \"".indexOf(line.charAt(at)) < 0) {
                at++;
            }
            String t = line.substring(start, at);
            if (!t.matches(pattern)) {
                throw new IllegalArgumentException("bad name '" + t + "' at " + start);
            }
            return t;
        }

        private char peek() {
            if (at >= line.length()) {
                throw new IllegalArgumentException("line ends early");
            }
            return line.charAt(at);
        }

        private char next() {
            char c = peek();
            at++;
            return c;
        }

        private void expect(char c) {
            if (next() != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + (at - 1));
            }
        }

        private static double number(String s) {
            return switch (s) {
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                case "NaN" -> Double.NaN;
                default -> Double.parseDouble(s);
            };
        }
    }
}
