package demo;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
class HelloResourceTest {

    @Test
    void theSixthCallInTenSecondsIsRefused() {
        for (int i = 4; i >= 0; i--) {
            given().get("/hello/fixed").then().statusCode(200).header("RateLimit-Policy", equalTo("\"10s\";q=5;w=10"));
        }
        given().get("/hello/fixed").then().statusCode(429).body("violated-policies[0]", equalTo("10s"));
    }
}
