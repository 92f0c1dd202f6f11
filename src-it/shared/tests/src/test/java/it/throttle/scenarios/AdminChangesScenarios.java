package it.throttle.scenarios;

import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Overrides, usage, reset and top denied over the admin HTTP API, on the bucket {@code admin-target}
 * (AdminTargetResource: 3 calls an hour by default, 10 on plan pro, counted per client address) that no other
 * scenario calls.
 */
public abstract class AdminChangesScenarios extends AdminClient {

    private static final String TARGET = "/it/admin-target";
    private static final String BUCKET = "admin-target";

    private int call(String address) {
        return anonymous().header("X-Forwarded-For", address).get(TARGET).statusCode();
    }

    private JsonPath usage(String address) {
        return operator().queryParam("bucket", BUCKET).header("Throttle-Identity", "ip:" + address)
                .get("/throttle-admin/usage").then().statusCode(200).extract().jsonPath();
    }

    @Test
    public void bucketsListEveryLimitOfEveryPlan() {
        JsonPath buckets = operator().get("/throttle-admin/buckets").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> mine = buckets.getList("findAll { it.bucket == '" + BUCKET + "' }");
        assertEquals(2, mine.size(), buckets.prettify());
        Map<String, Object> byDefault = mine.stream().filter(b -> "default".equals(b.get("plan"))).findFirst().orElseThrow();
        assertEquals(3, byDefault.get("limit"));
        assertEquals(3_600_000, byDefault.get("windowMillis"));
        assertEquals(3_600_000, byDefault.get("precisionMillis"));
        assertEquals(false, byDefault.get("overridden"));
    }

    @Test
    public void anOverrideAppliesToCallsAndIsTakenBack() {
        String address = freshAddress();
        operator().queryParam("bucket", BUCKET).queryParam("plan", "default").queryParam("rate", "5/1h")
                .queryParam("rate", "100/1d/1h").put("/throttle-admin/limits").then().statusCode(204);
        try {
            eventually("the override applies", () -> String.valueOf(anonymous().header("X-Forwarded-For", address).get(TARGET)
                    .header("RateLimit-Policy")).contains(";q=5;w=3600"));
            JsonPath buckets = operator().get("/throttle-admin/buckets").then().statusCode(200).extract().jsonPath();
            List<Map<String, Object>> overridden = buckets.getList("findAll { it.bucket == '" + BUCKET + "' && it.plan == 'default' }");
            assertEquals(2, overridden.size(), buckets.prettify());
            assertTrue(overridden.stream().allMatch(b -> Boolean.TRUE.equals(b.get("overridden"))), buckets.prettify());
        } finally {
            operator().queryParam("bucket", BUCKET).delete("/throttle-admin/limits").then().statusCode(204);
        }
        eventually("the annotation's limits apply again", () -> String.valueOf(anonymous().header("X-Forwarded-For", freshAddress())
                .get(TARGET).header("RateLimit-Policy")).contains(";q=3;w=3600"));
    }

    @Test
    public void anOverrideOfABucketNoAnnotationDeclaresIsA400() {
        operator().queryParam("bucket", "no-such-bucket").queryParam("rate", "5/1h").put("/throttle-admin/limits")
                .then().statusCode(400).body("status", equalTo(400));
    }

    @Test
    public void usageShowsWhatWasCountedAndAResetForgetsIt() {
        String address = freshAddress();
        assertEquals(200, call(address));
        assertEquals(200, call(address));
        JsonPath used = usage(address);
        assertEquals(BUCKET, used.getString("bucket"));
        assertEquals("ip:" + address, used.getString("identity"));
        assertEquals(null, used.getString("plan"));
        assertEquals(2, used.getInt("limits[0].used"), used.prettify());
        assertEquals(1, used.getInt("limits[0].remaining"), used.prettify());
        assertTrue(used.getLong("limits[0].resetSeconds") > 0, used.prettify());

        operator().queryParam("bucket", BUCKET).queryParam("identity", "ip:" + address).delete("/throttle-admin/usage")
                .then().statusCode(204);
        eventually("the reset is seen", () -> usage(address).getInt("limits[0].used") == 0);
        assertEquals(200, call(address));
    }

    @Test
    public void theMostDeniedIdentitiesComeFirst() {
        String address = freshAddress();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, call(address));
        }
        assertEquals(429, call(address));
        assertEquals(429, call(address));
        JsonPath top = eventually("the denials are merged", () -> operator().queryParam("bucket", BUCKET).queryParam("n", "100")
                .get("/throttle-admin/top").then().statusCode(200).extract().jsonPath(),
                t -> t.getList("identity").contains("ip:" + address));
        Map<String, Object> mine = top.getMap("find { it.identity == 'ip:" + address + "' }");
        assertTrue(((Number) mine.get("denied")).longValue() >= 2, top.prettify());
    }
}
