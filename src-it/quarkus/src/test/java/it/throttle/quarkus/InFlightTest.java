package it.throttle.quarkus;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In-flight limits over HTTP, counted in a real Redis: a call holds its seat while it works (and while its body
 * streams), and gives it back when its response is written, whether it succeeded or failed.
 */
@QuarkusTest
@QuarkusTestResource(value = RedisResource.class, restrictToAnnotatedClass = true)
class InFlightTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private CompletableFuture<HttpResponse<String>> start(String path) {
        HttpRequest get = HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + path)).build();
        return http.sendAsync(get, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void twoCallsWorkAtOnceAThirdGets429UntilOneEnds() throws Exception {
        CompletableFuture<HttpResponse<String>> a = start("/in-flight/work?id=a");
        CompletableFuture<HttpResponse<String>> b = start("/in-flight/work?id=b");
        given().get("/in-flight/entered?n=2").then().statusCode(200);

        String retryAfter = given().get("/in-flight/work?id=c").then().statusCode(429)
                .header("RateLimit-Policy", equalTo("\"10m\";q=100;w=600, \"in-flight-10m\";q=2;w=600;qu=\"concurrent-requests\""))
                .header("RateLimit", containsString("\"in-flight-10m\";r=0;t="))
                .body(containsString("\"violated-policies\":[\"in-flight-10m\"]"))
                .extract().header("Retry-After");
        assertSoonestLeaseEnd(retryAfter);

        given().post("/in-flight/finish?id=a").then().statusCode(204);
        assertEquals(200, a.get(60, TimeUnit.SECONDS).statusCode());
        CompletableFuture<HttpResponse<String>> d = start("/in-flight/work?id=d");
        given().get("/in-flight/entered?n=1").then().statusCode(200);
        given().get("/in-flight/work?id=e").then().statusCode(429);

        given().post("/in-flight/finish?id=b").then().statusCode(204);
        given().post("/in-flight/finish?id=d").then().statusCode(204);
        assertEquals(200, b.get(60, TimeUnit.SECONDS).statusCode());
        HttpResponse<String> done = d.get(60, TimeUnit.SECONDS);
        assertEquals("worked d", done.body());
        assertEquals("\"10m\";q=100;w=600, \"in-flight-10m\";q=2;w=600;qu=\"concurrent-requests\"",
                done.headers().firstValue("RateLimit-Policy").orElseThrow());
        // every seat is back; the rate limit kept counting: 4 calls made (the two refused ones record nothing)
        CompletableFuture<HttpResponse<String>> f = start("/in-flight/work?id=f");
        CompletableFuture<HttpResponse<String>> g = start("/in-flight/work?id=g");
        given().get("/in-flight/entered?n=2").then().statusCode(200);
        given().post("/in-flight/finish?id=f").then().statusCode(204);
        given().post("/in-flight/finish?id=g").then().statusCode(204);
        HttpResponse<String> last = g.get(60, TimeUnit.SECONDS);
        assertEquals(200, f.get(60, TimeUnit.SECONDS).statusCode());
        assertEquals(200, last.statusCode());
    }

    @Test
    void aStreamedBodyHoldsItsSeatUntilItsLastByteIsWritten() throws Exception {
        CompletableFuture<HttpResponse<String>> streaming = start("/in-flight/stream?id=s1");
        given().get("/in-flight/entered?n=1").then().statusCode(200);
        assertSoonestLeaseEnd(given().get("/in-flight/stream?id=s2").then().statusCode(429).extract().header("Retry-After"));
        given().post("/in-flight/finish?id=s1").then().statusCode(204);
        HttpResponse<String> whole = streaming.get(60, TimeUnit.SECONDS);
        assertEquals(200, whole.statusCode());
        assertEquals("first part\nlast part\n", whole.body());
        CompletableFuture<HttpResponse<String>> next = start("/in-flight/stream?id=s3");
        given().get("/in-flight/entered?n=1").then().statusCode(200);
        given().post("/in-flight/finish?id=s3").then().statusCode(204);
        assertEquals(200, next.get(60, TimeUnit.SECONDS).statusCode());
    }

    /** Retry-After: when the lease (10 minutes) of the call that started a moment ago ends. */
    private static void assertSoonestLeaseEnd(String retryAfter) {
        int seconds = Integer.parseInt(retryAfter);
        assertTrue(seconds > 540 && seconds <= 600, "Retry-After " + retryAfter);
    }

    @Test
    void aCallThatFailsGivesItsSeatBack() {
        for (int i = 0; i < 3; i++) {
            given().get("/in-flight/refuse").then().statusCode(503);
        }
    }

    @Test
    void aCallThatThrowsAnUnmappedExceptionGivesItsSeatBack() {
        for (int i = 0; i < 3; i++) {
            given().get("/in-flight/fail").then().statusCode(500);
        }
    }
}
