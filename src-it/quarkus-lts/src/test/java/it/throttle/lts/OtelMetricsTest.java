package it.throttle.lts;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code throttle.metrics=otel} on Quarkus with OpenTelemetry metrics switched on: the calls reach an
 * OpenTelemetry exporter, and not Micrometer, which is there too.
 */
@QuarkusTest
@TestProfile(Profiles.AdminApiAndOtelMetrics.class)
class OtelMetricsTest {

    private static final AttributeKey<String> BUCKET = AttributeKey.stringKey("bucket");
    private static final AttributeKey<String> PLAN = AttributeKey.stringKey("plan");
    private static final AttributeKey<String> RESULT = AttributeKey.stringKey("result");

    @Test
    void callsAreCountedInOpenTelemetryAndNotInMicrometer() {
        String address = Observed.freshAddress();
        List<Integer> statuses = List.of(given().header("X-Forwarded-For", address).get("/lts/counted").statusCode(),
                given().header("X-Forwarded-For", address).get("/lts/counted").statusCode(),
                given().header("X-Forwarded-For", address).get("/lts/counted").statusCode());
        assertEquals(List.of(200, 200, 429), statuses);

        Attributes allowed = Attributes.of(BUCKET, "lts-counted", PLAN, "default", RESULT, "allowed");
        Attributes denied = Attributes.of(BUCKET, "lts-counted", PLAN, "default", RESULT, "denied");
        // exported every 200 ms, cumulative: an export that holds all three calls is waited for (the test injects
        // no OpenTelemetry bean to flush it, so that the bean stays as removable as in an application)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long allowedCount;
        long deniedCount;
        do {
            Optional<MetricData> calls = latest("throttle.calls");
            allowedCount = calls.map(m -> count(m, allowed)).orElse(0L);
            deniedCount = calls.map(m -> count(m, denied)).orElse(0L);
            if (allowedCount < 2 || deniedCount < 1) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        } while ((allowedCount < 2 || deniedCount < 1) && System.nanoTime() < deadline);
        assertEquals(2, allowedCount);
        assertEquals(1, deniedCount);

        MetricData storeCalls = latest("throttle.store.calls").orElseThrow(() -> new AssertionError("no throttle.store.calls exported"));
        Attributes success = Attributes.of(AttributeKey.stringKey("store"), "memory", AttributeKey.stringKey("outcome"), "success");
        long timed = storeCalls.getHistogramData().getPoints().stream().filter(p -> p.getAttributes().equals(success))
                .mapToLong(HistogramPointData::getCount).sum();
        assertTrue(timed >= 2, "store calls timed: " + storeCalls);
        assertEquals("s", storeCalls.getUnit());

        assertEquals(List.of(), Observed.metrics().named(Observed.CALLS), "Micrometer is not the chosen backend");
    }

    private static Optional<MetricData> latest(String name) {
        List<MetricData> all = TestMetricExporterProvider.EXPORTER.getFinishedMetricItems();
        MetricData last = null;
        for (MetricData m : all) {
            if (m.getName().equals(name)) {
                last = m;
            }
        }
        return Optional.ofNullable(last);
    }

    private static long count(MetricData m, Attributes attributes) {
        return m.getLongSumData().getPoints().stream().filter(p -> p.getAttributes().equals(attributes))
                .mapToLong(LongPointData::getValue).sum();
    }
}
