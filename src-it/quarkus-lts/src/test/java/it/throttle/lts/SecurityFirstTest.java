package it.throttle.lts;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * Quarkus security refuses a call before Throttle decides it: a request without credentials (401) or from a caller
 * without the role (403) is not counted, and carries no rate-limit fields; the callers that may call get the whole
 * quota, decided on the event loop and served on a worker.
 */
@QuarkusTest
@TestProfile(Profiles.EmbeddedStore.class)
class SecurityFirstTest {

    @Test
    void callsRefusedBySecurityAreNotCounted() {
        for (int i = 0; i < 3; i++) {
            given().get("/secured").then().statusCode(401).header("RateLimit", nullValue());
            given().auth().preemptive().basic("operator", "operator-secret").get("/secured").then().statusCode(403)
                    .header("RateLimit", nullValue());
        }
        // one address: the six refused calls above would have used its quota three times over
        given().auth().preemptive().basic("reader", "reader-secret").get("/secured").then().statusCode(200)
                .body(startsWith("read on executor-thread")).header("RateLimit", startsWith("\"1h\";r=1"));
        given().auth().preemptive().basic("reader", "reader-secret").get("/secured").then().statusCode(200)
                .header("RateLimit", startsWith("\"1h\";r=0"));
        given().auth().preemptive().basic("reader", "reader-secret").get("/secured").then().statusCode(429)
                .header("RateLimit-Policy", equalTo("\"1h\";q=2;w=3600"));
    }

    /** Decided on the event loop, the limit counts the principal Quarkus security established. */
    @Test
    void thePrincipalSecurityEstablishedIsTheOneCounted() {
        for (int i = 0; i < 2; i++) {
            given().auth().preemptive().basic("reader", "reader-secret").get("/secured/mine").then().statusCode(200)
                    .body(startsWith("mine on executor-thread"));
        }
        given().auth().preemptive().basic("reader", "reader-secret").get("/secured/mine").then().statusCode(429);
        given().auth().preemptive().basic("writer", "writer-secret").get("/secured/mine").then().statusCode(200)
                .header("RateLimit", startsWith("\"1h\";r=1"));
    }
}
