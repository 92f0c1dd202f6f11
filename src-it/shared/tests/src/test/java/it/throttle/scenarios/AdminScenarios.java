package it.throttle.scenarios;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who may use the admin HTTP API, assignments over it, and its 400s (see {@link AdminClient} for the users).
 */
public abstract class AdminScenarios extends AdminClient {

    /** Throttled 3 an hour by default and 10 on plan pro (PlansResource), counted per client address. */
    private static final String PRICED = "/it/plans/priced";

    @Test
    public void withoutCredentialsTheAdminApiAnswers401() {
        refusedAndNothingChanges(anonymous(), 401);
    }

    @Test
    public void aUserWithoutTheRoleGets403() {
        refusedAndNothingChanges(reader(), 403);
        // authenticated, the caller reaches the admin API, whose own refusal this is
        reader().get("/throttle-admin/buckets").then().statusCode(403)
                .contentType(containsString("application/problem+json")).body("detail", containsString("throttle-admin"));
    }

    private void refusedAndNothingChanges(RequestSpecification caller, int status) {
        caller.get("/throttle-admin/assignments").then().statusCode(status);
        String address = freshAddress();
        caller.queryParam("identity", "ip:" + address).queryParam("plan", "blocked")
                .put("/throttle-admin/assignments").then().statusCode(status);
        assertEquals(null, assignments().get("ip:" + address), "nothing was assigned");
    }

    @Test
    public void theRoleHolderGetsJsonAndTheAdminApiIsNeverThrottled() {
        for (int i = 0; i < 5; i++) {
            Response r = operator().get("/throttle-admin/assignments");
            r.then().statusCode(200).contentType(startsWith("application/json"))
                    .header("RateLimit", nullValue()).header("RateLimit-Policy", nullValue());
        }
    }

    @Test
    public void anAssignmentMadeOverHttpAppliesListsAndIsTakenBack() {
        String address = freshAddress();
        String identity = "ip:" + address;
        anonymous().header("X-Forwarded-For", address).get(PRICED).then().statusCode(200)
                .header("RateLimit-Policy", equalTo("\"1h\";q=3;w=3600"));

        operator().queryParam("identity", identity).queryParam("plan", "pro").queryParam("for", "1h")
                .put("/throttle-admin/assignments").then().statusCode(204);
        Map<String, Object> listed = assignments().get(identity);
        assertEquals("pro", listed.get("plan"), String.valueOf(listed));
        assertTrue(String.valueOf(listed.get("until")).matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), String.valueOf(listed));
        eventually("the pro limits apply to " + identity, () -> "\"1h\";q=10;w=3600".equals(
                anonymous().header("X-Forwarded-For", address).get(PRICED).header("RateLimit-Policy")));

        // the identity may come in a header instead, out of the access log
        operator().header("Throttle-Identity", identity).delete("/throttle-admin/assignments").then().statusCode(204);
        assertEquals(null, assignments().get(identity));
        eventually("the default limits apply to " + identity + " again", () -> "\"1h\";q=3;w=3600".equals(
                anonymous().header("X-Forwarded-For", address).get(PRICED).header("RateLimit-Policy")));
    }

    @Test
    public void anAssignmentWithoutEndIsListedWithUntilNull() {
        String identity = "user:admin-" + ThreadLocalRandom.current().nextInt(1_000_000);
        operator().queryParam("identity", identity).queryParam("plan", "unlimited").put("/throttle-admin/assignments")
                .then().statusCode(204);
        JsonPath all = operator().get("/throttle-admin/assignments").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> mine = all.getList("findAll { it.identity == '" + identity + "' }");
        assertEquals(1, mine.size(), all.prettify());
        assertTrue(mine.get(0).containsKey("until") && mine.get(0).get("until") == null, String.valueOf(mine));
        operator().queryParam("identity", identity).delete("/throttle-admin/assignments").then().statusCode(204);
    }

    @Test
    public void aBadParameterIsA400NamingItAndChangesNothing() {
        String address = freshAddress();
        operator().queryParam("identity", "ip:" + address).queryParam("plan", "pro").queryParam("for", "soon")
                .put("/throttle-admin/assignments").then().statusCode(400)
                .contentType(containsString("application/problem+json"))
                .body("status", equalTo(400)).body("detail", startsWith("for: "));
        operator().queryParam("identity", "ip:" + address).queryParam("plan", "platinum")
                .put("/throttle-admin/assignments").then().statusCode(400).body("detail", startsWith("plan "));
        operator().queryParam("plan", "pro").put("/throttle-admin/assignments").then().statusCode(400)
                .body("detail", startsWith("identity: "));
        operator().queryParam("bucket", "admin-target").queryParam("rate", "100/1x")
                .put("/throttle-admin/limits").then().statusCode(400).body("detail", startsWith("rate: "));
        assertEquals(null, assignments().get("ip:" + address), "nothing was assigned");
    }
}
