package io.github.throttle.jaxrs;

import io.github.throttle.ThrottleAdmin;
import io.github.throttle.Throttler;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.testing.TestConfig;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.junit.jupiter.api.Test;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin API's HTTP layer: who is let in, how parameters are read and refused, and the JSON it writes. The
 * admin behind it is a recording double of {@link ThrottleAdmin}; the real one is exercised on each runtime.
 */
class ThrottleAdminResourceTest {

    /** Remembers each call; answers what it is given. */
    static final class RecordingAdmin implements ThrottleAdmin {
        final List<String> calls = new ArrayList<>();
        List<BucketLimits> buckets = List.of();
        List<Usage> usage = List.of();
        List<Denied> denied = List.of();
        Map<String, Assignment> assignments = new LinkedHashMap<>();
        RuntimeException refusal;

        private void call(String call) {
            if (refusal != null) {
                throw refusal;
            }
            calls.add(call);
        }

        @Override
        public List<BucketLimits> buckets() {
            call("buckets");
            return buckets;
        }

        @Override
        public void override(String bucket, String plan, List<Throttler.Rate> limits) {
            call("override " + bucket + " [" + plan + "] " + limits);
        }

        @Override
        public void clearOverride(String bucket, String plan) {
            call("clearOverride " + bucket + " [" + plan + "]");
        }

        @Override
        public List<Usage> usage(String bucket, String plan, String identity) {
            call("usage " + bucket + " [" + plan + "] " + identity);
            return usage;
        }

        @Override
        public void reset(String bucket, String identity) {
            call("reset " + bucket + " " + identity);
        }

        @Override
        public void resetAll() {
            call("reset all");
        }

        @Override
        public List<Denied> topDenied(String bucket, int n) {
            call("topDenied " + bucket + " " + n);
            return denied;
        }

        @Override
        public void assign(String identity, String plan, Duration duration) {
            call("assign " + identity + " " + plan + " " + duration);
        }

        @Override
        public void unassign(String identity) {
            call("unassign " + identity);
        }

        @Override
        public Map<String, Assignment> assignments() {
            call("assignments");
            return assignments;
        }
    }

    private final RecordingAdmin admin = new RecordingAdmin();
    private final ThrottleAdminResource api = resource("throttle.admin.enabled", "true");

    private ThrottleAdminResource resource(String... config) {
        return new ThrottleAdminResource(admin, ThrottleSettings.read(TestConfig.of(config)));
    }

    /** A caller with these roles; none when {@code name} is null. */
    private static SecurityContext user(String name, String... roles) {
        Principal p = name == null ? null : () -> name;
        return new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return p;
            }

            @Override
            public boolean isUserInRole(String role) {
                return Set.of(roles).contains(role);
            }

            @Override
            public boolean isSecure() {
                return false;
            }

            @Override
            public String getAuthenticationScheme() {
                return "BASIC";
            }
        };
    }

    private static final SecurityContext ANONYMOUS = user(null);

    private static final SecurityContext OPERATOR = user("olga", "throttle-admin");

    private static String body(Response r) {
        return String.valueOf(r.getEntity());
    }

    private void assertBadRequestNaming(String parameter, Response r) {
        assertEquals(400, r.getStatus(), body(r));
        assertEquals("application/problem+json", String.valueOf(r.getMediaType()));
        assertTrue(body(r).contains("\"detail\":\"" + parameter + ": "), body(r));
        assertEquals(List.of(), admin.calls, "nothing is asked of the admin");
    }

    @Test
    void switchedOffItAnswersAsAPathNoResourceHas() {
        ThrottleAdminResource off = resource();
        assertThrows(NotFoundException.class, () -> off.assignments(OPERATOR));
        assertThrows(NotFoundException.class, () -> resource("throttle.admin.enabled", "false").buckets(OPERATOR));
        assertEquals(List.of(), admin.calls);
    }

    @Test
    void anUnauthenticatedCallerGets401AndOneWithoutTheRole403() {
        Response anonymous = api.assign(ANONYMOUS, "key:k", null, "pro", null);
        assertEquals(401, anonymous.getStatus());
        assertEquals("application/problem+json", String.valueOf(anonymous.getMediaType()));
        assertTrue(body(anonymous).startsWith("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401"), body(anonymous));
        Response noRole = api.assign(user("mallory", "user"), "key:k", null, "pro", null);
        assertEquals(403, noRole.getStatus());
        assertTrue(body(noRole).contains("throttle-admin"), body(noRole));
        assertEquals(List.of(), admin.calls);
    }

    @Test
    void theRoleIsConfigurable() {
        ThrottleAdminResource ops = resource("throttle.admin.enabled", "true", "throttle.admin.role", "ops");
        assertEquals(403, ops.assignments(OPERATOR).getStatus());
        assertEquals(200, ops.assignments(user("otto", "ops")).getStatus());
    }

    @Test
    void bucketsAreOneObjectPerLimitWithTheDefaultPlanNamedDefault() {
        admin.buckets = List.of(
                new ThrottleAdmin.BucketLimits("com.acme.Search#find", "", List.of(Throttler.Rate.of(100, Duration.ofMinutes(1)),
                        Throttler.Rate.sliding(1000, Duration.ofHours(1), Duration.ofMinutes(1))), false),
                new ThrottleAdmin.BucketLimits("say \"hi\"", "pro", List.of(new Throttler.Rate(5, Duration.ofSeconds(10), null)), true));
        Response r = api.buckets(OPERATOR);
        assertEquals(200, r.getStatus());
        assertEquals("application/json", String.valueOf(r.getMediaType()));
        assertEquals("[{\"bucket\":\"com.acme.Search#find\",\"plan\":\"default\",\"limit\":100,\"windowMillis\":60000,\"precisionMillis\":60000,\"overridden\":false},"
                + "{\"bucket\":\"com.acme.Search#find\",\"plan\":\"default\",\"limit\":1000,\"windowMillis\":3600000,\"precisionMillis\":60000,\"overridden\":false},"
                + "{\"bucket\":\"say \\\"hi\\\"\",\"plan\":\"pro\",\"limit\":5,\"windowMillis\":10000,\"precisionMillis\":10000,\"overridden\":true}]", body(r));
        admin.buckets = List.of();
        assertEquals("[]", body(api.buckets(OPERATOR)));
    }

    @Test
    void anOverrideTakesEveryRateAndDefaultMeansTheDefaultLimits() {
        Response r = api.override(OPERATOR, "search", "default", List.of("100/1m", "1000/1h/1m", "5/500ms", "10000/1d/1h"));
        assertEquals(204, r.getStatus(), body(r));
        assertEquals(List.of("override search [] [" + Throttler.Rate.of(100, Duration.ofMinutes(1)) + ", "
                + Throttler.Rate.sliding(1000, Duration.ofHours(1), Duration.ofMinutes(1)) + ", "
                + Throttler.Rate.of(5, Duration.ofMillis(500)) + ", "
                + Throttler.Rate.sliding(10_000, Duration.ofDays(1), Duration.ofHours(1)) + "]"), admin.calls);
        admin.calls.clear();
        assertEquals(204, api.override(OPERATOR, "search", null, List.of("1/1s")).getStatus());
        assertEquals(204, api.override(OPERATOR, "search", "pro", List.of("1/1s")).getStatus());
        assertEquals(204, api.clearOverride(OPERATOR, "search", "pro").getStatus());
        assertEquals(List.of("override search [] [" + Throttler.Rate.of(1, Duration.ofSeconds(1)) + "]",
                "override search [pro] [" + Throttler.Rate.of(1, Duration.ofSeconds(1)) + "]", "clearOverride search [pro]"), admin.calls);
    }

    @Test
    void aBadRateIsRefusedNamingItAndNothingChanges() {
        assertBadRequestNaming("rate", api.override(OPERATOR, "search", null, List.of()));
        assertBadRequestNaming("rate", api.override(OPERATOR, "search", null, List.of("100/1m", "100")));
        assertBadRequestNaming("rate", api.override(OPERATOR, "search", null, List.of("many/1m")));
        assertBadRequestNaming("rate", api.override(OPERATOR, "search", null, List.of("100/1x")));
        assertBadRequestNaming("rate", api.override(OPERATOR, "search", null, List.of("0/1m")));
        assertBadRequestNaming("rate", api.override(OPERATOR, "search", null, List.of("100/1m/1h")));
        assertBadRequestNaming("rate", api.override(OPERATOR, "search", null, List.of("100/1d/1ms")));
        assertBadRequestNaming("rate", api.override(OPERATOR, "search", null, List.of("100/99999999999999d")));
        assertBadRequestNaming("bucket", api.override(OPERATOR, " ", null, List.of("100/1m")));
        assertBadRequestNaming("bucket", api.clearOverride(OPERATOR, null, null));
        Response r = api.override(OPERATOR, "search", null, List.of("100/1m/1h"));
        assertTrue(body(r).contains("precision"), body(r));
    }

    @Test
    void theAdminsOwnRefusalIsA400WithItsReasonAndAStoreThatCannotKeepItA503() {
        admin.refusal = new IllegalArgumentException("bucket 'nope': no annotation declares it");
        Response r = api.override(OPERATOR, "nope", null, List.of("1/1s"));
        assertEquals(400, r.getStatus());
        assertTrue(body(r).contains("\"detail\":\"bucket 'nope': no annotation declares it\""), body(r));
        admin.refusal = new IllegalStateException("Redis is down");
        r = api.assign(OPERATOR, "key:k", null, "pro", "1h");
        assertEquals(503, r.getStatus());
        assertTrue(body(r).contains("Redis is down"), body(r));
    }

    @Test
    void usageComesAsOneObjectWithTheIdentityFromTheQueryOrTheHeader() {
        admin.usage = List.of(new ThrottleAdmin.Usage("1m", 100, 120, 0, 1_001), new ThrottleAdmin.Usage("1h", 1000, 120, 880, 0));
        Response r = api.usage(OPERATOR, "search", null, null, "key:abc\"def");
        assertEquals(200, r.getStatus());
        assertEquals("{\"bucket\":\"search\",\"identity\":\"key:abc\\\"def\",\"plan\":null,\"limits\":["
                + "{\"policy\":\"1m\",\"limit\":100,\"used\":120,\"remaining\":0,\"resetSeconds\":2},"
                + "{\"policy\":\"1h\",\"limit\":1000,\"used\":120,\"remaining\":880,\"resetSeconds\":0}]}", body(r));
        String pro = body(api.usage(OPERATOR, "search", "pro", "user:ann", null));
        assertTrue(pro.startsWith("{\"bucket\":\"search\",\"identity\":\"user:ann\",\"plan\":\"pro\",\"limits\":[{"), pro);
        api.usage(OPERATOR, "search", "default", "user:ann", "user:ann");
        assertEquals(List.of("usage search [null] key:abc\"def", "usage search [pro] user:ann", "usage search [] user:ann"), admin.calls);
    }

    @Test
    void anIdentityIsRequiredOnceAndNotTwiceDifferently() {
        assertBadRequestNaming("identity", api.usage(OPERATOR, "search", null, null, null));
        assertBadRequestNaming("identity", api.usage(OPERATOR, "search", null, "user:a", "user:b"));
        assertBadRequestNaming("identity", api.reset(OPERATOR, "search", "", " "));
        assertBadRequestNaming("identity", api.unassign(OPERATOR, null, null));
        assertBadRequestNaming("bucket", api.usage(OPERATOR, null, null, "user:a", null));
    }

    @Test
    void aResetNamesTheBucketAndTheIdentity() {
        assertEquals(204, api.reset(OPERATOR, "search", null, "ip:10.0.0.1").getStatus());
        assertEquals(List.of("reset search ip:10.0.0.1"), admin.calls);
    }

    @Test
    void anAssignmentTakesAnOptionalDuration() {
        assertEquals(204, api.assign(OPERATOR, null, "key:abc", "pro", "1h").getStatus());
        assertEquals(204, api.assign(OPERATOR, "ip:10.0.0.0/8", null, "blocked", null).getStatus());
        assertEquals(204, api.unassign(OPERATOR, "ip:10.0.0.0/8", null).getStatus());
        assertEquals(List.of("assign key:abc pro PT1H", "assign ip:10.0.0.0/8 blocked null", "unassign ip:10.0.0.0/8"), admin.calls);
    }

    @Test
    void aBadAssignmentIsRefusedNamingTheParameter() {
        assertBadRequestNaming("plan", api.assign(OPERATOR, "key:k", null, null, "1h"));
        assertBadRequestNaming("for", api.assign(OPERATOR, "key:k", null, "pro", "an hour"));
        assertBadRequestNaming("for", api.assign(OPERATOR, "key:k", null, "pro", "0s"));
        assertBadRequestNaming("for", api.assign(OPERATOR, "key:k", null, "pro", "-1m"));
        assertBadRequestNaming("identity", api.assign(OPERATOR, null, null, "pro", "1h"));
    }

    @Test
    void assignmentsAreListedByIdentityWithTheirEndOrNull() {
        admin.assignments.put("user:zoe", new ThrottleAdmin.Assignment("pro", null));
        admin.assignments.put("key:a", new ThrottleAdmin.Assignment("blocked", Instant.parse("2030-01-02T03:04:05Z")));
        Response r = api.assignments(OPERATOR);
        assertEquals(200, r.getStatus());
        assertEquals("[{\"identity\":\"key:a\",\"plan\":\"blocked\",\"until\":\"2030-01-02T03:04:05Z\"},"
                + "{\"identity\":\"user:zoe\",\"plan\":\"pro\",\"until\":null}]", body(r));
    }

    @Test
    void topDeniedTakesTenByDefaultAndRefusesABadCount() {
        admin.denied = List.of(new ThrottleAdmin.Denied("ip:203.0.113.9", 41), new ThrottleAdmin.Denied("user:bob", 3));
        Response r = api.top(OPERATOR, "search", null);
        assertEquals("[{\"identity\":\"ip:203.0.113.9\",\"denied\":41},{\"identity\":\"user:bob\",\"denied\":3}]", body(r));
        api.top(OPERATOR, "search", "3");
        assertEquals(List.of("topDenied search 10", "topDenied search 3"), admin.calls);
        admin.calls.clear();
        assertBadRequestNaming("n", api.top(OPERATOR, "search", "0"));
        assertBadRequestNaming("n", api.top(OPERATOR, "search", "ten"));
        assertBadRequestNaming("bucket", api.top(OPERATOR, "", "3"));
    }
}
