package io.github.throttle.jaxrs;

/**
 * JSON written by Throttle itself (no JSON provider needed), as it goes: arrays, objects, and members whose
 * values are strings (null written as {@code null}), numbers or booleans; the commas come by themselves.
 */
final class JsonText {
    private final StringBuilder text = new StringBuilder(256);
    /** Whether the next value is the first of its array or object (or follows a member name). */
    private boolean first = true;

    JsonText array() {
        return open('[');
    }

    JsonText object() {
        return open('{');
    }

    /** Ends the innermost array or object with its closing bracket. */
    JsonText end(char closing) {
        text.append(closing);
        first = false;
        return this;
    }

    JsonText name(String name) {
        separate();
        string(text, name);
        text.append(':');
        first = true;
        return this;
    }

    JsonText member(String name, String value) {
        name(name);
        if (value == null) {
            text.append("null");
        } else {
            string(text, value);
        }
        first = false;
        return this;
    }

    JsonText member(String name, long value) {
        name(name).text.append(value);
        first = false;
        return this;
    }

    JsonText member(String name, boolean value) {
        name(name).text.append(value);
        first = false;
        return this;
    }

    private JsonText open(char opening) {
        separate();
        text.append(opening);
        first = true;
        return this;
    }

    private void separate() {
        if (!first) {
            text.append(',');
        }
    }

    @Override
    public String toString() {
        return text.toString();
    }

    /** Appends {@code s} as a JSON string (RFC 8259 escapes). */
    static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
