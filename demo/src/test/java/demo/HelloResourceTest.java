package demo;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class HelloResourceTest {

    @Test
    void onlyFiveCallsInTenSecondsAreAllowed() {
        // twelve quick calls span at most two 10 s windows, so one window sees its sixth call refused
        int allowed = 0;
        Response denied = null;
        for (int i = 0; i < 12 && denied == null; i++) {
            Response r = given().get("/hello/fixed");
            if (r.statusCode() == 200) {
                r.then().header("RateLimit-Policy", equalTo("\"10s\";q=5;w=10"));
                allowed++;
            } else {
                denied = r;
            }
        }
        assertTrue(denied != null, "no call refused");
        assertTrue(allowed >= 5 && allowed <= 10, allowed + " allowed");
        denied.then().statusCode(429).body("violated-policies[0]", equalTo("10s")).header("Retry-After", org.hamcrest.Matchers.matchesPattern("[1-9]\\d*"));
    }
}
