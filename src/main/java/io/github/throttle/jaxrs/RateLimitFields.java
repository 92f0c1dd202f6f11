package io.github.throttle.jaxrs;

import io.github.throttle.Decision;
import io.github.throttle.config.ThrottleSettings.HeaderStyle;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The response fields of a decision: {@code RateLimit-Policy} / {@code RateLimit}
 * (draft-ietf-httpapi-ratelimit-headers, one list member per limit), or the {@code X-RateLimit-*} trio,
 * and for a denied call {@code Retry-After} plus an RFC 9457 problem body.
 */
public final class RateLimitFields {

    public static final String PROBLEM_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";
    public static final String PROBLEM_JSON = "application/problem+json";

    private RateLimitFields() {
    }

    /** Adds the rate-limit fields of an allowed (or denied) call. */
    public static void write(Decision d, HeaderStyle style, MultivaluedMap<String, Object> headers) {
        write(d, style, headers, null);
    }

    /**
     * As {@link #write(Decision, HeaderStyle, MultivaluedMap)}, with the {@code RateLimit-Policy} value
     * already made by {@link #policy(List)} for these quotas (it depends only on the declared limits), or
     * null.
     */
    public static void write(Decision d, HeaderStyle style, MultivaluedMap<String, Object> headers, String policy) {
        if (d.isUnmetered() || style == HeaderStyle.NONE) {
            return;
        }
        List<Decision.Quota> quotas = d.quotas();
        if (style == HeaderStyle.IETF) {
            StringBuilder state = new StringBuilder(32 * quotas.size());
            for (Decision.Quota q : quotas) {
                if (state.length() > 0) {
                    state.append(", ");
                }
                state.append(sfString(q.policy())).append(";r=").append(q.remaining()).append(";t=").append(secondsFloor0(q.resetMillis()));
            }
            headers.putSingle("RateLimit-Policy", policy != null ? policy : policy(quotas));
            headers.putSingle("RateLimit", state.toString());
        } else {
            Decision.Quota tightest = quotas.get(0);
            for (Decision.Quota q : quotas) {
                if (q.violated() && !tightest.violated() || (q.violated() == tightest.violated() && q.remaining() < tightest.remaining())) {
                    tightest = q;
                }
            }
            headers.putSingle("X-RateLimit-Limit", Long.toString(tightest.limit()));
            headers.putSingle("X-RateLimit-Remaining", Long.toString(tightest.remaining()));
            headers.putSingle("X-RateLimit-Reset", Long.toString(secondsFloor0(tightest.resetMillis())));
        }
    }

    /** The {@code RateLimit-Policy} value of these quotas: names, limits and windows only. */
    public static String policy(List<Decision.Quota> quotas) {
        StringBuilder policy = new StringBuilder(32 * quotas.size());
        for (Decision.Quota q : quotas) {
            if (policy.length() > 0) {
                policy.append(", ");
            }
            policy.append(sfString(q.policy())).append(";q=").append(q.limit()).append(";w=").append(seconds(q.windowMillis()));
        }
        return policy.toString();
    }

    /** The response to a denied call: 429 (or 503 when the store could not be asked). */
    public static Response denied(Decision d, HeaderStyle style) {
        long retry = seconds(d.retryAfterMillis());
        if (d.isUnmetered()) {
            return Response.status(503, "Service Unavailable")
                    .header("Retry-After", retry)
                    .type(PROBLEM_JSON)
                    .entity("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
                            + "\"detail\":\"The rate limiter cannot decide right now; retry in " + retry + " s.\"}")
                    .build();
        }
        Response.ResponseBuilder r = Response.status(429, "Too Many Requests").header("Retry-After", retry);
        StringBuilder body = new StringBuilder(200);
        body.append("{\"type\":\"").append(PROBLEM_TYPE).append("\",\"title\":\"Too Many Requests\",\"status\":429,")
                .append("\"detail\":\"Rate limit exceeded; retry in ").append(retry).append(retry == 1 ? " second" : " seconds")
                .append(".\",\"violated-policies\":[");
        boolean first = true;
        for (Decision.Quota q : d.quotas()) {
            if (q.violated()) {
                if (!first) {
                    body.append(',');
                }
                first = false;
                Json.string(body, q.policy());
            }
        }
        body.append("]}");
        r.type(PROBLEM_JSON).entity(body.toString());
        Response response = r.build();
        write(d, style, response.getHeaders());
        return response;
    }

    /** Whole seconds, rounded up, at least 1. */
    static long seconds(long millis) {
        return Math.max(1, (millis + 999) / 1000);
    }

    /** Whole seconds, rounded up; 0 only for 0. */
    static long secondsFloor0(long millis) {
        return millis <= 0 ? 0 : (millis + 999) / 1000;
    }

    /** An RFC 8941 sf-string: printable ASCII, {@code "} and {@code \} escaped; anything else becomes {@code _}. */
    static String sfString(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c >= 0x20 && c <= 0x7e) {
                b.append(c);
            } else {
                b.append('_');
            }
        }
        return b.append('"').toString();
    }

    /** A tiny, correct JSON string writer (RFC 8259 escapes). */
    static final class Json {
        private Json() {
        }

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
}
