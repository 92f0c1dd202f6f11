package io.github.throttle.jaxrs;

import io.github.throttle.Decision;
import io.github.throttle.Decisions;
import io.github.throttle.Policies;
import io.github.throttle.config.ThrottleSettings.HeaderStyle;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The response fields of a decision: {@code RateLimit-Policy} / {@code RateLimit}
 * (draft-ietf-httpapi-ratelimit-headers-11, one list member per limit), or the {@code X-RateLimit-*} trio,
 * and for a denied call {@code Retry-After} plus an RFC 9457 problem body.
 *
 * <p>{@code r} is the available quota; {@code t} the effective window, the seconds (rounded up) during which no
 * more than {@code r} can be used: until the oldest counted sub-bucket leaves a sliding window (then some weight
 * comes back, not all), until the end of a fixed window (then all of it). For a violated limit it is when this
 * call would fit, which {@code Retry-After} never undercuts.
 */
final class RateLimitFields {

    public static final String PROBLEM_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";
    public static final String PROBLEM_JSON = "application/problem+json";

    private RateLimitFields() {
    }

    /** Adds the rate-limit fields of a call, in the configured style; none for an unmetered decision. */
    public static void write(Decision d, HeaderStyle style, MultivaluedMap<String, Object> headers) {
        if (d.isUnmetered() || style == HeaderStyle.NONE) {
            return;
        }
        List<Decision.Quota> quotas = d.quotas();
        if (style == HeaderStyle.IETF) {
            // the policies are those of the limit set, shared by its calls: their field is made once
            String policy = Decisions.policies(d).rendered(RateLimitFields::policyField);
            StringBuilder state = new StringBuilder(policy.length());
            for (int i = 0; i < quotas.size(); i++) {
                Decision.Quota q = quotas.get(i);
                if (i > 0) {
                    state.append(", ");
                }
                sfString(state, q.policy()).append(";r=").append(q.remaining());
                if (q.resetMillis() > 0) {
                    // the effective window (draft-11): until weight comes back, no more than r can be used; with
                    // nothing counted there is no such time yet, and t is left out
                    state.append(";t=").append(secondsUp(q.resetMillis()));
                }
            }
            headers.putSingle("RateLimit-Policy", policy);
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
            headers.putSingle("X-RateLimit-Reset", Long.toString(secondsUp(tightest.resetMillis())));
        }
    }

    /**
     * The response to a refused call: 429, or 503 when the store could not be asked, or 403 when the caller is
     * on plan {@code blocked}.
     */
    public static Response denied(Decision d, HeaderStyle style) {
        long retry = seconds(d.retryAfterMillis());
        if (d.isBlocked()) {
            return problem(403, "Forbidden", "This caller may not use this API.").build();
        }
        if (d.isUnmetered()) {
            return problem(503, "Service Unavailable", "The rate limiter cannot decide right now; retry in " + retry + " s.")
                    .header("Retry-After", retry).build();
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
                JsonText.string(body, q.policy());
            }
        }
        body.append("]}");
        r.type(PROBLEM_JSON).entity(body.toString());
        Response response = r.build();
        write(d, style, response.getHeaders());
        return response;
    }

    /** The response to a call whose weight could never pass: 400, saying why. */
    public static Response overweight(String why) {
        return problem(400, "Bad Request", why).build();
    }

    /** An {@code about:blank} problem body with this status. */
    static Response.ResponseBuilder problem(int status, String title, String detail) {
        StringBuilder body = new StringBuilder(120 + detail.length());
        body.append("{\"type\":\"about:blank\",\"title\":\"").append(title).append("\",\"status\":").append(status)
                .append(",\"detail\":");
        JsonText.string(body, detail);
        return Response.status(status, title).type(PROBLEM_JSON).entity(body.append('}').toString());
    }

    /** Whole seconds, rounded up, at least 1. */
    static long seconds(long millis) {
        return Math.max(1, (millis + 999) / 1000);
    }

    /** Whole seconds, rounded up; 0 only for 0. */
    static long secondsUp(long millis) {
        return millis <= 0 ? 0 : (millis + 999) / 1000;
    }

    /** The {@code RateLimit-Policy} field of these policies: one list member per limit. */
    static String policyField(Policies policies) {
        StringBuilder policy = new StringBuilder(32 * policies.list().size());
        for (Policies.Policy p : policies.list()) {
            if (policy.length() > 0) {
                policy.append(", ");
            }
            sfString(policy, p.name()).append(";q=").append(p.limit()).append(";w=").append(seconds(p.windowMillis()));
            if (p.inFlight()) {
                // the quota counts calls in progress (draft-ietf-httpapi-ratelimit-headers, quota unit)
                policy.append(";qu=\"concurrent-requests\"");
            }
        }
        return policy.toString();
    }

    /** An RFC 8941 sf-string: printable ASCII, {@code "} and {@code \} escaped; anything else becomes {@code _}. */
    static String sfString(String s) {
        return sfString(new StringBuilder(s.length() + 2), s).toString();
    }

    /** Appends {@code s} as an RFC 8941 sf-string ({@link #sfString(String)}) to {@code b}. */
    static StringBuilder sfString(StringBuilder b, String s) {
        b.append('"');
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
        return b.append('"');
    }
}
