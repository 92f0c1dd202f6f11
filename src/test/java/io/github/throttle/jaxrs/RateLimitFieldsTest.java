package io.github.throttle.jaxrs;

import io.github.throttle.Decision;
import io.github.throttle.Decisions;
import io.github.throttle.Policies;
import io.github.throttle.config.ThrottleSettings.HeaderStyle;
import jakarta.ws.rs.core.MultivaluedHashMap;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class RateLimitFieldsTest {

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndNeverZero() {
        assertEquals(1, RateLimitFields.seconds(1));
        assertEquals(1, RateLimitFields.seconds(1000));
        assertEquals(2, RateLimitFields.seconds(1001));
        assertEquals(1, RateLimitFields.seconds(0));
        assertEquals(0, RateLimitFields.secondsUp(0));
        assertEquals(1, RateLimitFields.secondsUp(1));
    }

    @Test
    void policyNamesAreValidStructuredFieldStrings() {
        assertEquals("\"a\\\"b\\\\c\"", RateLimitFields.sfString("a\"b\\c"));
        assertEquals("\"caf_ x_y\"", RateLimitFields.sfString("café x\ny"));
    }

    @Test
    void jsonStringsAreEscaped() {
        StringBuilder b = new StringBuilder();
        JsonText.string(b, "q\"\\\n\u0001\u2028é");
        assertEquals("\"q\\\"\\\\\\n\\u0001\\u2028é\"", b.toString());
    }

    @Test
    void aDeniedDecisionListsOnlyTheViolatedPolicies() {
        Decision d = Decision.of(false, List.of(
                new Decision.Quota("1s", 10, 1000, 3, 400, false),
                new Decision.Quota("my \"api\"-1h", 100, 3_600_000, 0, 1_234_500, true)));
        var r = RateLimitFields.denied(d, HeaderStyle.IETF);
        assertEquals(429, r.getStatus());
        assertEquals("1235", String.valueOf(r.getHeaders().getFirst("Retry-After")));
        assertEquals("\"1s\";q=10;w=1, \"my \\\"api\\\"-1h\";q=100;w=3600", r.getHeaders().getFirst("RateLimit-Policy"));
        assertEquals("\"1s\";r=3;t=1, \"my \\\"api\\\"-1h\";r=0;t=1235", r.getHeaders().getFirst("RateLimit"));
        assertEquals("{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\",\"title\":\"Too Many Requests\","
                + "\"status\":429,\"detail\":\"Rate limit exceeded; retry in 1235 seconds.\",\"violated-policies\":[\"my \\\"api\\\"-1h\"]}",
                r.getEntity());
    }

    @Test
    void anAllowedCallGetsOneMemberPerLimitWithItsRemainingAndResetInWholeSeconds() {
        Decision d = Decision.of(true, List.of(new Decision.Quota("1s", 10, 1000, 2, 350, false),
                new Decision.Quota("search-1h", 240, 3_600_000, 17, 1_799_001, false)));
        var fields = new MultivaluedHashMap<String, Object>();
        RateLimitFields.write(d, HeaderStyle.IETF, fields);
        assertEquals("\"1s\";q=10;w=1, \"search-1h\";q=240;w=3600", fields.getFirst("RateLimit-Policy"));
        assertEquals("\"1s\";r=2;t=1, \"search-1h\";r=17;t=1800", fields.getFirst("RateLimit"));
        assertEquals(2, fields.size());
    }

    @Test
    void thePolicyFieldOfSharedPoliciesIsMadeOnceAndServesEveryCall() {
        Policies policies = Policies.of(List.of(new Policies.Policy("1s", 10, 1000, false), new Policies.Policy("in-flight-1m", 2, 60_000, true)));
        Decision a = Decisions.of(true, List.of(new Decision.Quota("1s", 10, 1000, 9, 1000, false),
                new Decision.Quota("in-flight-1m", 2, 60_000, 1, 0, false, true)), policies);
        Decision b = Decisions.of(true, List.of(new Decision.Quota("1s", 10, 1000, 8, 1000, false),
                new Decision.Quota("in-flight-1m", 2, 60_000, 0, 59_000, false, true)), policies);
        var fa = new MultivaluedHashMap<String, Object>();
        var fb = new MultivaluedHashMap<String, Object>();
        RateLimitFields.write(a, HeaderStyle.IETF, fa);
        RateLimitFields.write(b, HeaderStyle.IETF, fb);
        assertEquals("\"1s\";q=10;w=1, \"in-flight-1m\";q=2;w=60;qu=\"concurrent-requests\"", fa.getFirst("RateLimit-Policy"));
        assertSame(fa.getFirst("RateLimit-Policy"), fb.getFirst("RateLimit-Policy"));
        assertEquals("\"1s\";r=9;t=1, \"in-flight-1m\";r=1", fa.getFirst("RateLimit"));
        assertEquals("\"1s\";r=8;t=1, \"in-flight-1m\";r=0;t=59", fb.getFirst("RateLimit"));
    }

    @Test
    void withNothingCountedThereIsNoEffectiveWindowAndTIsLeftOut() {
        // draft-11: t is the time within which no more than r can be used; with nothing counted, no weight is
        // due back, so the member carries r alone
        Decision d = Decision.of(true, List.of(new Decision.Quota("1m", 10, 60_000, 10, 0, false),
                new Decision.Quota("1h", 100, 3_600_000, 40, 12_000, false)));
        var fields = new MultivaluedHashMap<String, Object>();
        RateLimitFields.write(d, HeaderStyle.IETF, fields);
        assertEquals("\"1m\";r=10, \"1h\";r=40;t=12", fields.getFirst("RateLimit"));
    }

    @Test
    void anInFlightLimitIsAQuotaOfConcurrentRequestsAndIsRetriedWhenTheSoonestLeaseEnds() {
        Decision d = Decision.of(false, List.of(new Decision.Quota("10m", 100, 600_000, 97, 590_000, false),
                new Decision.Quota("in-flight-10m", 2, 600_000, 0, 12_300, true, true)));
        var r = RateLimitFields.denied(d, HeaderStyle.IETF);
        assertEquals(429, r.getStatus());
        assertEquals("13", String.valueOf(r.getHeaders().getFirst("Retry-After")));
        assertEquals("\"10m\";q=100;w=600, \"in-flight-10m\";q=2;w=600;qu=\"concurrent-requests\"",
                r.getHeaders().getFirst("RateLimit-Policy"));
        assertEquals("\"10m\";r=97;t=590, \"in-flight-10m\";r=0;t=13", r.getHeaders().getFirst("RateLimit"));
    }

    @Test
    void theXRateLimitStyleShowsTheTightestLimit() {
        Decision d = Decision.of(true, List.of(new Decision.Quota("1s", 10, 1000, 2, 350, false),
                new Decision.Quota("1h", 240, 3_600_000, 17, 1_799_001, false)));
        var fields = new MultivaluedHashMap<String, Object>();
        RateLimitFields.write(d, HeaderStyle.X_RATELIMIT, fields);
        assertEquals("10", fields.getFirst("X-RateLimit-Limit"));
        assertEquals("2", fields.getFirst("X-RateLimit-Remaining"));
        assertEquals("1", fields.getFirst("X-RateLimit-Reset"));
    }

    @Test
    void aStoreFailureWithDenyIsA503() {
        var r = RateLimitFields.denied(Decision.unavailable(1000), HeaderStyle.IETF);
        assertEquals(503, r.getStatus());
        assertEquals("1", String.valueOf(r.getHeaders().getFirst("Retry-After")));
        assertEquals(null, r.getHeaders().getFirst("RateLimit"));
    }
}
