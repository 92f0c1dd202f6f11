package it.throttle.liberty;

import it.throttle.scenarios.Observability;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open Liberty with MicroProfile Telemetry 2.1 (OpenTelemetry) instead of MicroProfile Metrics, and
 * MicroProfile Health, on the embedded store: Throttle finds OpenTelemetry by itself ({@code throttle.metrics}
 * left at {@code auto}) and its counter {@code throttle.calls} reaches the SDK's exporter. The server-wide SDK
 * is switched on and exports through the logging exporter every half second, into messages.log.
 */
class TelemetryIT {

    private static LibertyServer server;

    @BeforeAll
    static void start() {
        Map<String, String> env = new HashMap<>();
        env.put("OTEL_SDK_DISABLED", "false");
        env.put("OTEL_METRICS_EXPORTER", "logging");
        env.put("OTEL_METRIC_EXPORT_INTERVAL", "500");
        env.put("OTEL_TRACES_EXPORTER", "none");
        env.put("OTEL_LOGS_EXPORTER", "none");
        server = LibertyServer.start("telemetry", LibertyServer.port("it.http.port.telemetry"), env, "/liberty/telemetry-health.xml");
    }

    @AfterAll
    static void stop() {
        LibertySuite.stop(server);
    }

    private static Observability observed() {
        return new Observability(server.port());
    }

    @Test
    public void theStartUpLineNamesOpenTelemetry() {
        String line = server.startUpLine();
        assertTrue(line.endsWith("counting in the embedded in-memory store, metrics: otel"), line);
    }

    @Test
    public void callsAreExportedAsOpenTelemetryMetricsByBucketAndResult() {
        // no other test of this server calls these two targets: their cumulative sums are exactly these calls
        for (int i = 0; i < 3; i++) {
            get("/it/override/limited", i < 2 ? 200 : 429);
            get("/it/override/reported", 200);
        }
        Map<Map<String, String>, Long> expected = Map.of(
                point("it.throttle.app.OverrideResource#limited", "allowed"), 2L,
                point("it.throttle.app.OverrideResource#limited", "denied"), 1L,
                point("it.throttle.app.OverrideResource#reported", "allowed"), 1L,
                point("it.throttle.app.OverrideResource#reported", "would-deny"), 2L);
        // the exporter runs on its own schedule: wait for an export that holds all the calls
        AtomicReference<Map<Map<String, String>, Long>> last = new AtomicReference<>();
        try {
            Observability.await("an export of throttle.calls with every call", Duration.ofSeconds(30), () -> {
                Optional<Map<Map<String, String>, Long>> points = OtelLoggingExport.lastSum(server.messages(), "throttle.calls")
                        .map(TelemetryIT::ofTheseTargets);
                points.ifPresent(last::set);
                return points.isPresent() && points.get().equals(expected);
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last export: " + last.get(), e);
        }
    }

    @Test
    public void theReadinessCheckIsUpAndNamesItsStore() {
        Response r = observed().readiness();
        r.then().statusCode(200);
        Map<String, Object> check = Observability.throttleCheck(r);
        assertEquals("UP", check.get("status"), r.asString());
        assertEquals("memory", Observability.data(check, "store"), r.asString());
        assertEquals("true", Observability.data(check, "reachable"), r.asString());
    }

    private static Map<Map<String, String>, Long> ofTheseTargets(Map<Map<String, String>, Long> points) {
        Map<Map<String, String>, Long> these = new HashMap<>(points);
        these.keySet().removeIf(a -> !String.valueOf(a.get("bucket")).startsWith("it.throttle.app.OverrideResource#"));
        return these;
    }

    private static Map<String, String> point(String bucket, String result) {
        return Map.of("bucket", bucket, "plan", "default", "result", result);
    }

    private static void get(String path, int status) {
        RestAssured.given().baseUri("http://127.0.0.1").port(server.port()).header("X-Forwarded-For", "192.0.2.77")
                .get(path).then().statusCode(status);
    }
}
