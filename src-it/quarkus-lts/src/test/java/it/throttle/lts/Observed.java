package it.throttle.lts;

import it.throttle.scenarios.PrometheusText;
import io.restassured.response.Response;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the application publishes about Throttle: its Prometheus metrics and its readiness check. */
final class Observed {

    /** The calls counter as Prometheus names it. */
    static final String CALLS = "throttle_calls_total";
    /** The store-call timer's count and sum, as Prometheus names them (a Micrometer timer is in seconds). */
    static final String STORE_CALLS_COUNT = "throttle_store_calls_seconds_count";
    static final String STORE_CALLS_SUM = "throttle_store_calls_seconds_sum";

    private Observed() {
    }

    /** The labels of one series of the calls counter, of calls on no plan ({@code default}). */
    static Map<String, String> calls(String bucket, String result) {
        return Map.of("bucket", bucket, "plan", "default", "result", result);
    }

    /** The labels of one series of the store-call timer. */
    static Map<String, String> storeCalls(String store, String outcome) {
        return Map.of("store", store, "outcome", outcome);
    }

    /** {@code /q/metrics} in the Prometheus text format, parsed. */
    static PrometheusText metrics() {
        String text = given().accept("text/plain").get("/q/metrics").then().statusCode(200).extract().asString();
        return PrometheusText.parse(text);
    }

    static Response readiness() {
        return given().get("/q/health/ready");
    }

    /** Readiness is UP, and so is its check named {@code throttle}, which finds {@code store} reachable. */
    static void assertReady(String store) {
        Response ready = readiness();
        ready.then().statusCode(200).body("status", equalTo("UP"));
        Map<String, Object> check = throttleCheck(ready);
        assertEquals("UP", check.get("status"));
        assertEquals(Map.of("store", store, "reachable", true), check.get("data"));
    }

    /** The one check named {@code throttle} of a health response. */
    static Map<String, Object> throttleCheck(Response health) {
        List<Map<String, Object>> checks = health.jsonPath().getList("checks");
        List<Map<String, Object>> named = checks.stream().filter(c -> "throttle".equals(c.get("name"))).toList();
        assertEquals(1, named.size(), "one check named throttle in " + health.asString());
        return named.get(0);
    }

    /** A client address no other test uses. */
    static String freshAddress() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return "10." + r.nextInt(100, 200) + "." + r.nextInt(1, 255) + "." + r.nextInt(1, 255);
    }
}
