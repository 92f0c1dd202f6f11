package it.throttle.scenarios;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A client of the admin HTTP API on a server whose security knows two users: {@value #OPERATOR} with the role
 * {@code throttle-admin} and {@value #READER} without it. The application runs with
 * {@code throttle.admin.enabled=true}.
 */
public abstract class AdminClient {

    public static final String OPERATOR = "operator";
    public static final String OPERATOR_PASSWORD = "operator-secret";
    public static final String READER = "reader";
    public static final String READER_PASSWORD = "reader-secret";

    protected String baseUri() {
        return "http://127.0.0.1";
    }

    /** The server's port; RestAssured's by default, where Quarkus puts its test port. */
    protected int port() {
        return RestAssured.port;
    }

    protected RequestSpecification anonymous() {
        return RestAssured.given().baseUri(baseUri()).port(port());
    }

    protected RequestSpecification operator() {
        return anonymous().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD);
    }

    protected RequestSpecification reader() {
        return anonymous().auth().preemptive().basic(READER, READER_PASSWORD);
    }

    /** An address no other scenario uses: 198.19.0.0/16 is in no list. */
    protected static String freshAddress() {
        return "198.19." + ThreadLocalRandom.current().nextInt(256) + "." + ThreadLocalRandom.current().nextInt(1, 255);
    }

    /** Waits, at most 30 s, until the condition holds (a change reaches every instance within a second). */
    protected static void eventually(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within 30 s: " + what);
            }
            // a pause between requests: on a busy machine a tight loop would take the CPU the server needs
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    protected static <T> T eventually(String what, Supplier<T> value, Predicate<T> done) {
        Object[] last = new Object[1];
        eventually(what, () -> {
            T v = value.get();
            last[0] = v;
            return done.test(v);
        });
        @SuppressWarnings("unchecked")
        T v = (T) last[0];
        return v;
    }

    /** The live assignments by identity, each as its JSON object. */
    protected Map<String, Map<String, Object>> assignments() {
        List<Map<String, Object>> list = operator().get("/throttle-admin/assignments").then().statusCode(200)
                .extract().jsonPath().getList("$");
        Map<String, Map<String, Object>> byIdentity = new HashMap<>();
        for (Map<String, Object> a : list) {
            byIdentity.put((String) a.get("identity"), a);
        }
        return byIdentity;
    }
}
