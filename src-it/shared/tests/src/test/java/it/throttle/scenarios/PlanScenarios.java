package it.throttle.scenarios;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import static it.throttle.scenarios.Client.rnd;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who pays how much, as clients see it: plans (annotations, lists in microprofile-config.properties, the
 * application's plan bean), the reserved plans {@code unlimited} and {@code blocked}, a weigher and a login endpoint
 * that counts only failures. The lists name {@code 198.18.0.0/24} and {@code 2001:db8:b10c::/48} blocked,
 * {@code 198.18.1.0/24} unlimited and {@code 198.18.2.0/24} pro, besides the keys {@code blocked-key},
 * {@code unlimited-key} and {@code pro-key} and the user {@code pro-user}. Implemented by each runtime's suite.
 */
public interface PlanScenarios extends Client {

    String PRICED = "/it/plans/priced";
    String DEFAULT_POLICY = "\"1h\";q=3;w=3600";
    String PRO_POLICY = "\"1h\";q=10;w=3600";
    /** Every rate-limit field Throttle may send, in either dialect. */
    List<String> FIELDS = List.of("RateLimit", "RateLimit-Policy", "X-RateLimit-Limit", "X-RateLimit-Remaining",
            "X-RateLimit-Reset", "Retry-After");

    /** An address of a network the lists name, e.g. {@code 198.18.0.x} for {@code 198.18.0.0/24}. */
    private static String in(String network) {
        return network + "." + rnd();
    }

    private static ValidatableResponse allowedOn(Response r, String policy, long remaining) {
        return r.then().statusCode(200).header("RateLimit-Policy", equalTo(policy))
                .header("RateLimit", matchesPattern("\"1h\";r=" + remaining + ";t=\\d+"));
    }

    private static void withoutFields(Response r) {
        for (String field : FIELDS) {
            assertEquals(null, r.header(field), field + " on a " + r.statusCode());
        }
    }

    /** A 403 problem body, without rate-limit fields, through the application's own response filter. */
    private static void isBlocked(Response r) {
        r.then().statusCode(403).contentType(containsString("application/problem+json"))
                .header("Access-Control-Allow-Origin", equalTo("*"))
                .body("status", equalTo(403)).body("title", equalTo("Forbidden"));
        withoutFields(r);
    }

    @Test
    default void eachCallerGetsTheLimitsOfItsPlan() {
        allowedOn(me().get(PRICED), DEFAULT_POLICY, 2);
        // on plan pro by the lists: a key, a user, an address of a network
        allowedOn(as(in("10.20.1")).header("X-API-Key", "pro-key").get(PRICED), PRO_POLICY, 9);
        allowedOn(as(in("10.20.2")).header("X-Test-User", "pro-user").get(PRICED), PRO_POLICY, 9);
        allowedOn(as(in("198.18.2")).get(PRICED), PRO_POLICY, 9);
        // by the application's plan bean; a plan no annotation names gets the default limits
        allowedOn(as(in("10.20.3")).header("X-Plan", "pro").get(PRICED), PRO_POLICY, 9);
        allowedOn(as(in("10.20.4")).header("X-Plan", "gold").get(PRICED), DEFAULT_POLICY, 2);
    }

    @Test
    default void anIdentityThatChangesPlanKeepsWhatItUsed() {
        for (int i = 2; i >= 0; i--) {
            allowedOn(me().get(PRICED), DEFAULT_POLICY, i);
        }
        me().get(PRICED).then().statusCode(429).header("RateLimit-Policy", equalTo(DEFAULT_POLICY));
        // now on pro: the 3 already used count against its 10
        allowedOn(me().header("X-Plan", "pro").get(PRICED), PRO_POLICY, 6);
        allowedOn(me().header("X-API-Key", "pro-key").get(PRICED), PRO_POLICY, 5);
        // back on the default plan, the 5 used are more than its 3
        me().get(PRICED).then().statusCode(429).header("RateLimit", matchesPattern("\"1h\";r=0;t=\\d+"));
    }

    @Test
    default void unlimitedCallersAreNotCountedAndSeeNoFields() {
        String address = in("198.18.1");
        List<Supplier<RequestSpecification>> unlimited = List.of(() -> me().header("X-API-Key", "unlimited-key"), () -> as(address));
        for (Supplier<RequestSpecification> caller : unlimited) {
            for (int i = 0; i < 5; i++) {
                Response r = caller.get().get("/it/fixed");
                r.then().statusCode(200).body(equalTo("fixed"));
                withoutFields(r);
            }
        }
        // nothing was counted for this client's address
        me().get("/it/fixed").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=2;t=\\d+"));
    }

    @Test
    default void blockedCallersAreRefusedWith403() {
        isBlocked(me().header("X-API-Key", "blocked-key").get("/it/fixed"));
        isBlocked(as(in("198.18.0")).get("/it/fixed"));
        isBlocked(as("2001:db8:b10c::" + Integer.toHexString(rnd())).get("/it/fixed"));
        isBlocked(me().header("X-Plan", "blocked").get(PRICED));
        // blocked comes first: a blocked address with an unlimited key is blocked
        isBlocked(as(in("198.18.0")).header("X-API-Key", "unlimited-key").get("/it/fixed"));
        // lists apply to throttled targets only
        me().header("X-API-Key", "blocked-key").get("/it/open").then().statusCode(200);
        // a refused call records nothing
        me().get("/it/fixed").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=2;t=\\d+"));
    }

    @Test
    default void aBlockedCallerOfABeanIsRefusedWith403() {
        isBlocked(me().header("X-Plan", "blocked").get("/it/export"));
        // the bean's pro limits applied, and the resource sees the bean call's decision
        me().header("X-Plan", "pro").get("/it/export").then().statusCode(200).body(matchesPattern("exported plan=pro remaining=\\d+"));
    }

    @Test
    default void aWeigherChargesWhatTheQuerySays() {
        Response free = me().queryParam("size", 0).get("/it/sized");
        // nothing counted yet: no weight is due back, so there is no effective window (t) to tell (draft-11)
        free.then().statusCode(200).header("RateLimit", equalTo("\"1h\";r=10"));
        me().queryParam("size", 3).get("/it/sized").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=7;t=\\d+"));
        // no size: the weigher bean's configured default, 1
        me().get("/it/sized").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=6;t=\\d+"));
        me().queryParam("size", 0).get("/it/sized").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=6;t=\\d+"));
        Response tooHeavy = me().queryParam("size", 11).get("/it/sized");
        tooHeavy.then().statusCode(400).contentType(containsString("application/problem+json"))
                .header("Access-Control-Allow-Origin", equalTo("*"))
                .body("status", equalTo(400)).body("detail", containsString("weighs 11")).body("detail", containsString("10"));
        withoutFields(tooHeavy);
        // the call that could never pass recorded nothing: 6 is still there to spend
        me().queryParam("size", 6).get("/it/sized").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=0;t=\\d+"));
        me().queryParam("size", 1).get("/it/sized").then().statusCode(429);
        // a free call still passes, with the fields
        me().queryParam("size", 0).get("/it/sized").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=0;t=\\d+"));
    }

    private Response login(String user, String password) {
        return me().queryParam("user", user).contentType("text/plain").body(password).post("/it/login");
    }

    private int attempts(String user) {
        return Integer.parseInt(me().queryParam("user", user).get("/it/login/attempts").then().statusCode(200).extract().asString().trim());
    }

    @Test
    default void onlyFailedLoginsUseTheQuota() {
        String user = "u" + System.nanoTime();
        for (int i = 0; i < 8; i++) {
            // charged while it runs (r=4), given back once it succeeded
            login(user, "secret").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=4;t=\\d+"));
        }
        for (int i = 4; i >= 0; i--) {
            login(user, "wrong").then().statusCode(401).header("RateLimit", matchesPattern("\"1h\";r=" + i + ";t=\\d+"));
        }
        login(user, "wrong").then().statusCode(429);
        login(user, "secret").then().statusCode(429);
        assertEquals(13, attempts(user));
    }

    @Test
    default void concurrentFailedLoginsNeverGetPastTheLimit() {
        String user = "c" + System.nanoTime();
        List<Integer> statuses = Concurrently.run(24, i -> login(user, "wrong").statusCode());
        assertEquals(Map.of(401, 5L, 429, 19L), Concurrently.histogram(statuses));
        assertEquals(5, attempts(user));
    }

    @Test
    default void concurrentSuccessesLeaveTheFailuresTheirLimit() {
        String user = "m" + System.nanoTime();
        List<Integer> statuses = Concurrently.run(20, i -> login(user, i % 2 == 0 ? "secret" : "wrong").statusCode());
        long failed = statuses.stream().filter(s -> s == 401).count();
        assertTrue(failed <= 5 && statuses.stream().allMatch(s -> s == 200 || s == 401 || s == 429), statuses.toString());
        // the successes gave their weight back: exactly what the failures left can still fail
        int more = 0;
        while (more <= 5 && login(user, "wrong").statusCode() == 401) {
            more++;
        }
        assertEquals(5, failed + more, statuses + ", then " + more + " more failures");
    }

    @Test
    default void refusalsPassThroughTheApplicationsResponseFilters() {
        for (int i = 0; i < 3; i++) {
            me().get("/it/fixed").then().statusCode(200).header("Access-Control-Allow-Origin", equalTo("*"));
        }
        me().get("/it/fixed").then().statusCode(429).header("Retry-After", matchesPattern("\\d+"))
                .header("Access-Control-Allow-Origin", equalTo("*"))
                .header("Access-Control-Expose-Headers", equalTo("RateLimit, RateLimit-Policy, Retry-After"));
        me().header("X-API-Key", "blocked-key").get("/it/fixed").then().statusCode(403)
                .header("Access-Control-Allow-Origin", equalTo("*"))
                .header("Access-Control-Expose-Headers", equalTo("RateLimit, RateLimit-Policy, Retry-After"));
    }

    @Test
    default void theResourceMethodSeesTheDecisionOfItsCall() {
        for (String path : List.of("/it/plans/quota", "/it/plans/quota-async")) {
            me().get(path).then().statusCode(200).body(equalTo("plan=default remaining=2"));
            me().header("X-Plan", "pro").get(path).then().statusCode(200).body(equalTo("plan=pro remaining=8"));
            me().header("X-Plan", "unlimited").get(path).then().statusCode(200).body(equalTo("plan=unlimited remaining=" + Long.MAX_VALUE))
                    .header("RateLimit", nullValue());
        }
    }

    @Test
    default void theApplicationsFiltersSeeTheDecisionAsARequestProperty() {
        String path = "/it/plans/quota-header";
        me().get(path).then().statusCode(200).header("X-Quota", equalTo("plan=default remaining=2"));
        me().header("X-API-Key", "pro-key").get(path).then().statusCode(200).header("X-Quota", equalTo("plan=pro remaining=8"));
        // a refused call has no decision to show
        me().header("X-Plan", "blocked").get(path).then().statusCode(403).header("X-Quota", equalTo("no decision"));
    }

    /**
     * Calls of one bucket are counted under the plan whose limits applied, and under no other name: for the suites
     * whose server publishes metrics, calling as {@code caller}.
     */
    static void callsAreCountedByPlan(Client caller, Observability observed) {
        String bucket = "it.throttle.app.PlansResource#priced";
        List<String> plans = List.of("default", "pro", "unlimited", "blocked");
        PrometheusText before = observed.metrics();
        caller.me().get(PRICED).then().statusCode(200);
        caller.as(in("10.21.1")).header("X-Plan", "gold").get(PRICED).then().statusCode(200);
        caller.as(in("10.21.2")).header("X-API-Key", "pro-key").get(PRICED).then().statusCode(200);
        caller.me().header("X-Plan", "blocked").get(PRICED).then().statusCode(403);
        caller.me().header("X-API-Key", "unlimited-key").get(PRICED).then().statusCode(200);
        PrometheusText after = observed.metrics();
        Map<String, Map<String, Double>> changes = new TreeMap<>();
        for (String plan : plans) {
            Map<String, Double> changed = Observability.changes(observed.calls(before, bucket, plan), observed.calls(after, bucket, plan));
            if (!changed.isEmpty()) {
                changes.put(plan, changed);
            }
        }
        assertEquals(Map.of("default", Map.of("allowed", 2.0), "pro", Map.of("allowed", 1.0), "unlimited", Map.of("unlimited", 1.0),
                "blocked", Map.of("blocked", 1.0)), changes);
        for (PrometheusText.Sample s : after.named("throttle_calls_total")) {
            if (bucket.equals(s.labels().get("bucket"))) {
                assertTrue(Set.copyOf(plans).contains(s.labels().get("plan")), s.toString());
            }
        }
    }

    /** With a plan bean (and a blocked list), throttled operations document the 403; the others do not. */
    static void blockedCallersAreDocumented(JsonPath doc) {
        for (String path : List.of("/it/override/limited", PRICED, "/it/login")) {
            String operation = path.equals("/it/login") ? "post" : "get";
            assertEquals("#/components/responses/ThrottleBlocked",
                    doc.getString("paths.'" + path + "'." + operation + ".responses.'403'.$ref"), path);
        }
        for (String path : List.of("/it/open", "/it/override/off", "/it/override/reported", "/it/export")) {
            assertFalse(doc.getMap("paths.'" + path + "'.get.responses").containsKey("403"), path);
        }
        assertTrue(doc.getMap("components.responses").containsKey("ThrottleBlocked"), "components.responses: "
                + doc.getMap("components.responses"));
    }
}
