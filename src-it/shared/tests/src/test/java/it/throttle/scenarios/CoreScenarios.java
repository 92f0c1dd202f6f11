package it.throttle.scenarios;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static it.throttle.scenarios.Client.rnd;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP behaviour of Throttle, as any client sees it: the 429 and its fields, several limits, weights, shared
 * names, identities, forwarded addresses, configuration overrides, report mode, beans and asynchronous endpoints.
 * Implemented by each runtime's suite, beside the other sets ({@link PlanScenarios}, {@link InFlightScenarios},
 * {@link WaitingScenarios}).
 */
public interface CoreScenarios extends Client {

    @Test
    default void status429IsReturnedOnceTheQuotaIsSpentWithEveryField() {
        for (int i = 1; i <= 3; i++) {
            me().get("/it/fixed").then().statusCode(200).body(equalTo("fixed"))
                    .header("RateLimit-Policy", equalTo("\"1h\";q=3;w=3600"))
                    .header("RateLimit", matchesPattern("\"1h\";r=" + (3 - i) + ";t=\\d+"));
        }
        Response r = me().get("/it/fixed");
        r.then().statusCode(429)
                .contentType(containsString("application/problem+json"))
                .header("Retry-After", matchesPattern("[1-9]\\d*"))
                .header("RateLimit-Policy", equalTo("\"1h\";q=3;w=3600"))
                .header("RateLimit", matchesPattern("\"1h\";r=0;t=\\d+"))
                .body("type", equalTo("https://iana.org/assignments/http-problem-types#quota-exceeded"))
                .body("title", equalTo("Too Many Requests"))
                .body("status", equalTo(429))
                .body("detail", containsString("retry in"))
                .body("violated-policies", equalTo(List.of("1h")));
        long retry = Long.parseLong(r.header("Retry-After"));
        assertTrue(retry > 0 && retry <= 3600, "Retry-After " + retry);
        String t = r.header("RateLimit").replaceAll(".*t=(\\d+).*", "$1");
        assertEquals(retry, Long.parseLong(t), "RateLimit t of the violated policy is the Retry-After");
    }

    /**
     * API-first code: {@code @GET @Throttle} on an interface method, the resource class implementing it carries only
     * its {@code @Path}. Each implementing class counts apart, under configuration keys of its own.
     */
    @Test
    default void aLimitDeclaredOnAnInterfaceMethodApplies() {
        String who = "10.12." + rnd() + "." + rnd();
        for (int i = 1; i <= 2; i++) {
            as(who).get("/it/iface/x").then().statusCode(200).body(equalTo("iface"))
                    .header("RateLimit-Policy", equalTo("\"1h\";q=2;w=3600"));
        }
        as(who).get("/it/iface/x").then().statusCode(429);
        // another class implementing the interface: a bucket of its own, and its key names that class
        for (int i = 1; i <= 3; i++) {
            as(who).get("/it/iface-other/x").then().statusCode(200).body(equalTo("other"))
                    .header("RateLimit-Policy", equalTo("\"1h\";q=3;w=3600"));
        }
        as(who).get("/it/iface-other/x").then().statusCode(429);
    }

    /** A limit declared on a superclass method that the resource class overrides without annotations. */
    @Test
    default void aLimitDeclaredOnAnOverriddenSuperclassMethodApplies() {
        String who = "10.13." + rnd() + "." + rnd();
        for (int i = 1; i <= 2; i++) {
            as(who).get("/it/sub/y").then().statusCode(200).body(equalTo("sub"))
                    .header("RateLimit-Policy", equalTo("\"1h\";q=2;w=3600"));
        }
        as(who).get("/it/sub/y").then().statusCode(429);
    }

    @Test
    default void endpointsWithoutThrottleCarryNoFields() {
        me().get("/it/open").then().statusCode(200).header("RateLimit", nullValue()).header("RateLimit-Policy", nullValue());
    }

    @Test
    default void theShortLimitRecoversWhileTheLongOneStillDenies() {
        // the short window slides by the second: three calls less than 4 s apart meet in it; should the machine be
        // slower than that, start again as a new client
        String who = null;
        Response third = null;
        for (int attempt = 0; attempt < 5 && (third == null || third.statusCode() != 429); attempt++) {
            who = "10.11." + rnd() + "." + rnd();
            as(who).get("/it/multi").then().statusCode(200)
                    .header("RateLimit-Policy", equalTo("\"5s\";q=2;w=5, \"1h\";q=4;w=3600"));
            as(who).get("/it/multi").then().statusCode(200);
            third = as(who).get("/it/multi");
        }
        third.then().statusCode(429).body("violated-policies", equalTo(List.of("5s"))).header("Retry-After", matchesPattern("[1-5]"));
        untilAllowed(who, "/it/multi");
        untilAllowed(who, "/it/multi");
        // the hour now holds 4: recovering the short window is no longer enough
        Response r = as(who).get("/it/multi");
        r.then().statusCode(429).body("violated-policies", hasItem("1h"));
        assertTrue(Long.parseLong(r.header("Retry-After")) > 3000, r.header("Retry-After"));
    }

    /**
     * Asks until the call is allowed, denied meanwhile; denied calls record nothing, so asking again does not
     * change the counts. The deadline is far beyond any window of the target: only a fault reaches it.
     */
    private void untilAllowed(String who, String path) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            int status = as(who).get(path).statusCode();
            if (status == 200) {
                return;
            }
            assertEquals(429, status);
            if (System.nanoTime() > deadline) {
                throw new AssertionError(path + " stayed denied for 30 s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
        }
    }

    @Test
    default void aWeightedCallSpendsItsWeight() {
        me().get("/it/weighted").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=6;t=\\d+"));
        me().get("/it/weighted").then().statusCode(200).header("RateLimit", matchesPattern("\"1h\";r=2;t=\\d+"));
        me().get("/it/weighted").then().statusCode(429).header("RateLimit", matchesPattern("\"1h\";r=2;t=\\d+"));
    }

    @Test
    default void targetsWithTheSameNameShareOneQuota() {
        me().get("/it/shared-a").then().statusCode(200).header("RateLimit-Policy", equalTo("\"shared-1h\";q=3;w=3600"));
        me().get("/it/shared-b").then().statusCode(200);
        me().get("/it/shared-a").then().statusCode(200);
        me().get("/it/shared-b").then().statusCode(429);
    }

    @Test
    default void aClassLevelLimitAppliesToEachMethodAndAMethodsOwnReplacesIt() {
        me().get("/it/class/one").then().statusCode(200);
        me().get("/it/class/one").then().statusCode(200);
        me().get("/it/class/one").then().statusCode(429);
        me().get("/it/class/two").then().statusCode(200);
        for (int i = 0; i < 4; i++) {
            me().get("/it/class/own").then().statusCode(200);
        }
        me().get("/it/class/own").then().statusCode(429);
    }

    @Test
    default void theAuthenticatedPrincipalIsLimitedWhateverItsAddress() {
        String user = "u" + System.nanoTime();
        as("10.1.1.1").header("X-Test-User", user).get("/it/by-user").then().statusCode(200);
        as("10.1.1.2").header("X-Test-User", user).get("/it/by-user").then().statusCode(200);
        as("10.1.1.3").header("X-Test-User", user).get("/it/by-user").then().statusCode(429);
        as("10.1.1.3").header("X-Test-User", user + "x").get("/it/by-user").then().statusCode(200);
    }

    @Test
    default void byDefaultThePrincipalElseTheAddressIsLimited() {
        String user = "d" + System.nanoTime();
        me().header("X-Test-User", user).get("/it/by-default").then().statusCode(200);
        me().header("X-Test-User", user).get("/it/by-default").then().statusCode(200);
        me().header("X-Test-User", user).get("/it/by-default").then().statusCode(429);
        // the same address without a principal has its own quota
        me().get("/it/by-default").then().statusCode(200);
    }

    @Test
    default void theClientAddressIsLimitedWhateverThePrincipal() {
        me().header("X-Test-User", "a").get("/it/by-address").then().statusCode(200);
        me().header("X-Test-User", "b").get("/it/by-address").then().statusCode(200);
        me().header("X-Test-User", "c").get("/it/by-address").then().statusCode(429);
    }

    @Test
    default void anApiKeyHeaderIsLimitedAndAMissingKeyFallsBackToTheAddress() {
        String key = "k" + System.nanoTime();
        as("10.2.2.1").header("X-API-Key", key).get("/it/by-header").then().statusCode(200);
        as("10.2.2.2").header("X-API-Key", key).get("/it/by-header").then().statusCode(200);
        as("10.2.2.3").header("X-API-Key", key).get("/it/by-header").then().statusCode(429);
        // no key: not one shared bucket for everyone without a key, but the caller's address
        me().get("/it/by-header").then().statusCode(200);
        me().get("/it/by-header").then().statusCode(200);
        me().get("/it/by-header").then().statusCode(429);
        as(client() + "9").get("/it/by-header").then().statusCode(200);
    }

    @Test
    default void anApiKeyHeaderSetByAnEarlierApplicationFilterIsTheOneCounted() {
        String key = "f" + System.nanoTime();
        as("10.2.3.1").header("X-Test-Key-From", key).header("X-API-Key", "other" + key).get("/it/by-header")
                .then().statusCode(200);
        as("10.2.3.2").header("X-API-Key", key).get("/it/by-header").then().statusCode(200);
        as("10.2.3.3").header("X-Test-Key-From", key).get("/it/by-header").then().statusCode(429);
        // the key the filter replaced was never counted
        as("10.2.3.4").header("X-API-Key", "other" + key).get("/it/by-header").then().statusCode(200);
        as("10.2.3.5").header("X-API-Key", "other" + key).get("/it/by-header").then().statusCode(200);
    }

    @Test
    default void aResolverBeanOfTheApplicationChoosesTheIdentity() {
        String tenant = "Acme" + System.nanoTime();
        as("10.3.1.1").header("X-Tenant", tenant).get("/it/by-tenant").then().statusCode(200);
        as("10.3.1.2").header("X-Tenant", tenant.toUpperCase()).get("/it/by-tenant").then().statusCode(200);
        as("10.3.1.3").header("X-Tenant", " " + tenant.toLowerCase()).get("/it/by-tenant").then().statusCode(429);
        as("10.3.1.3").header("X-Tenant", tenant + "-other").get("/it/by-tenant").then().statusCode(200);
    }

    @Test
    default void withTwoIdentitiesEachIsLimitedAndADeniedCallChargesNeither() {
        String user = "b" + System.nanoTime();
        me().header("X-Test-User", user).get("/it/by-address-and-user").then().statusCode(200);
        me().header("X-Test-User", user).get("/it/by-address-and-user").then().statusCode(200);
        // the user is spent; from another address the call is denied and the new address keeps its quota
        // another address of the same network, never the client's own (which may end in .254 too)
        String other = client().replaceAll("\\.\\d+$", client().endsWith(".254") ? ".253" : ".254");
        as(other).header("X-Test-User", user).get("/it/by-address-and-user").then().statusCode(429);
        as(other).header("X-Test-User", user + "-2").get("/it/by-address-and-user").then().statusCode(200)
                .header("RateLimit", matchesPattern("\"1h\";r=1;t=\\d+"));
    }

    @Test
    default void aTrustedProxysForwardedForNamesTheClient() {
        String a = "192.0.2." + rnd();
        for (int i = 0; i < 3; i++) {
            as(a).get("/it/fixed");
        }
        as(a).get("/it/fixed").then().statusCode(429);
        RestAssured.given().baseUri(baseUri()).port(port()).header("Forwarded", "for=\"" + a + ":4711\";proto=http")
                .get("/it/fixed").then().statusCode(429);
        RestAssured.given().baseUri(baseUri()).port(port()).header("Forwarded", "for=\"[2001:db8::" + Integer.toHexString(rnd()) + "]\"")
                .get("/it/fixed").then().statusCode(200);
    }

    @Test
    default void anUntrustedPeerCannotChooseItsIdentityWithForwardedFor() {
        String host = "127.0.0.1";
        String path = "/it/by-address";
        // a peer outside the trusted proxies: whatever it forwards, it is itself
        int first = RawHttp.get(host, port(), "127.0.0.2", path, Map.of("X-Forwarded-For", "203.0.113.1"));
        int second = RawHttp.get(host, port(), "127.0.0.2", path, Map.of("X-Forwarded-For", "203.0.113.2"));
        int third = RawHttp.get(host, port(), "127.0.0.2", path, Map.of("Forwarded", "for=203.0.113.3"));
        int fourth = RawHttp.get(host, port(), "127.0.0.2", path, Map.of("X-Forwarded-For", "203.0.113.4, 127.0.0.1"));
        assertEquals(List.of(200, 200, 429, 429), List.of(first, second, third, fourth));
    }

    @Test
    default void configurationOverridesAndSwitchesLimitsOff() {
        me().get("/it/override/limited").then().statusCode(200).header("RateLimit-Policy", equalTo("\"1h\";q=2;w=3600"));
        me().get("/it/override/limited").then().statusCode(200);
        me().get("/it/override/limited").then().statusCode(429);
        for (int i = 0; i < 5; i++) {
            me().get("/it/override/off").then().statusCode(200).header("RateLimit", nullValue());
        }
        me().get("/it/override/indexed").then().statusCode(200)
                .header("RateLimit-Policy", equalTo("\"1h\";q=50;w=3600, \"1d\";q=1;w=86400"));
        me().get("/it/override/indexed").then().statusCode(429).body("violated-policies", equalTo(List.of("1d")));
    }

    @Test
    default void aTargetInReportModeIsNeverRefusedAndSendsNoFields() {
        for (int i = 0; i < 3; i++) {
            me().get("/it/override/reported").then().statusCode(200).body(equalTo("reported"))
                    .header("RateLimit", nullValue()).header("RateLimit-Policy", nullValue()).header("Retry-After", nullValue());
        }
    }

    @Test
    default void aBeanInReportModeNeverThrows() {
        for (int i = 0; i < 3; i++) {
            me().get("/it/service/reported").then().statusCode(200).body(equalTo("reported"));
        }
    }

    @Test
    default void theDecisionIsTakenBeforeTheEntityIsRead() {
        me().body("x".repeat(1000)).post("/it/upload").then().statusCode(200).body(equalTo("read 1000"));
        me().body("y".repeat(1000)).post("/it/upload").then().statusCode(429);
    }

    @Test
    default void anAsynchronousEndpointIsThrottled() {
        me().get("/it/async").then().statusCode(200).body(equalTo("async")).header("RateLimit", matchesPattern("\"1h\";r=1;t=\\d+"));
        me().get("/it/async").then().statusCode(200);
        me().get("/it/async").then().statusCode(429);
    }

    @Test
    default void aThrottledExceptionFromABeanBecomesA429() {
        int ok = 0;
        int denied = 0;
        for (int i = 0; i < 4; i++) {
            Response r = me().get("/it/service");
            if (r.statusCode() == 200) {
                ok++;
            } else {
                r.then().statusCode(429).contentType(containsString("application/problem+json")).header("Retry-After", matchesPattern("[1-9]\\d*"));
                denied++;
            }
        }
        // the bean's limit is global (no HTTP identity inside a bean): 2 calls per hour in all
        assertTrue(ok <= 2 && denied >= 2, ok + " allowed, " + denied + " denied");
    }
}
