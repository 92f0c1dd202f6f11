package it.throttle.scenarios;

import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the server publishes about Throttle: the {@code throttle_calls_total} samples of its metrics endpoint
 * (Prometheus text) and its readiness check {@code throttle}. MicroProfile Metrics 5 and Health serve
 * {@code /metrics} and {@code /health/*} (samples labelled {@code mp_scope="application"}); Quarkus serves them
 * under {@code /q/}, without that label; WildFly serves both on its management port.
 */
public final class Observability {

    /** Every value of the {@code result} tag. */
    public static final List<String> RESULTS = List.of("allowed", "denied", "would-deny", "store-failure-allowed", "store-failure-denied",
            "local-allowed", "local-denied", "unlimited", "blocked");

    private final int port;
    private final int endpointsPort;
    private final String metricsPath;
    private final String healthPath;
    private final Map<String, String> scope;

    /** The MicroProfile endpoints of the server on {@code port}. */
    public Observability(int port) {
        this(port, port, "/metrics", "/health", Map.of("mp_scope", "application"));
    }

    private Observability(int port, int endpointsPort, String metricsPath, String healthPath, Map<String, String> scope) {
        this.port = port;
        this.endpointsPort = endpointsPort;
        this.metricsPath = metricsPath;
        this.healthPath = healthPath;
        this.scope = scope;
    }

    /** The application's HTTP port. */
    public int port() {
        return port;
    }

    /** The endpoints of the Quarkus application on {@code port}. */
    public static Observability quarkus(int port) {
        return new Observability(port, port, "/q/metrics", "/q/health", Map.of());
    }

    /**
     * The endpoints of an application on {@code port} whose server serves Prometheus text at {@code metricsPath}
     * and MicroProfile Health at {@code /health} on another port (WildFly's management port), samples without
     * {@code mp_scope}.
     */
    public static Observability onManagementPort(int port, int managementPort, String metricsPath) {
        return new Observability(port, managementPort, metricsPath, "/health", Map.of());
    }

    /** The metrics endpoint, parsed. */
    public PrometheusText metrics() {
        Response r = RestAssured.given().baseUri("http://127.0.0.1").port(endpointsPort).accept("text/plain").get(metricsPath);
        assertEquals(200, r.statusCode(), () -> "GET " + metricsPath + ": " + r.statusLine() + "\n" + r.asString());
        return PrometheusText.parse(r.asString());
    }

    /** The {@code throttle_calls_total} count of each result of {@code bucket} (plan {@code default}). */
    public Map<String, Double> calls(String bucket) {
        return calls(metrics(), bucket, "default");
    }

    /** The {@code throttle_calls_total} count of each result of {@code bucket} on {@code plan}, in these metrics. */
    public Map<String, Double> calls(PrometheusText m, String bucket, String plan) {
        Map<String, Double> counts = new LinkedHashMap<>();
        for (String result : RESULTS) {
            counts.put(result, m.value("throttle_calls_total", labels(Map.of("bucket", bucket, "plan", plan, "result", result))));
        }
        return counts;
    }

    /** How many store calls of this outcome the timer {@code throttle.store.calls} has seen. */
    public double storeCalls(String store, String outcome) {
        return metrics().value("throttle_store_calls_seconds_count", labels(Map.of("store", store, "outcome", outcome)));
    }

    private Map<String, String> labels(Map<String, String> tags) {
        Map<String, String> all = new HashMap<>(tags);
        all.putAll(scope);
        return all;
    }

    /** The results whose count changed from {@code before} to {@code after}, with the change. */
    public static Map<String, Double> changes(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> changed = new LinkedHashMap<>();
        after.forEach((result, n) -> {
            double d = n - before.getOrDefault(result, 0.0);
            if (d != 0) {
                changed.put(result, d);
            }
        });
        return changed;
    }

    /** {@code GET /health/ready}. */
    public Response readiness() {
        return RestAssured.given().baseUri("http://127.0.0.1").port(endpointsPort).accept("application/json").get(healthPath + "/ready");
    }

    /** {@code GET /health/live}. */
    public Response liveness() {
        return RestAssured.given().baseUri("http://127.0.0.1").port(endpointsPort).accept("application/json").get(healthPath + "/live");
    }

    /** The readiness check {@code throttle} as one object of the response's {@code checks}; empty when absent. */
    public static Map<String, Object> throttleCheck(Response health) {
        List<Map<String, Object>> checks = JsonPath.from(health.asString()).getList("checks");
        return checks.stream().filter(c -> "throttle".equals(c.get("name"))).findFirst().orElse(Map.of());
    }

    /** A data field of the check as text: servers write {@code reachable} as a JSON boolean or as a string. */
    @SuppressWarnings("unchecked")
    public static String data(Map<String, Object> check, String field) {
        Object data = check.get("data");
        return data instanceof Map<?, ?> m ? String.valueOf(((Map<String, Object>) m).get(field)) : "(no data)";
    }

    /** Waits for an asynchronous change (a reconnect, a dropped connection) to show, polling until the deadline. */
    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }
}
