package it.throttle.quarkus;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A second instance of the packaged application (the one {@code @QuarkusIntegrationTest} starts is the first): a
 * process of its own started from the same jar, on a port of its own, with the same Redis URI, as two servers
 * behind a load balancer. Its output goes to {@code target/<name>.log}.
 */
final class SecondInstance implements AutoCloseable {

    private final Process process;
    private final int port;

    private SecondInstance(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts it and waits until {@code readyPath} answers 200. */
    static SecondInstance start(String name, String readyPath) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        Process p = new ProcessBuilder(java, "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1",
                "-Dthrottle.redis.uri=" + RedisResource.redis.uri(), "-jar", "target/quarkus-app/quarkus-run.jar")
                .redirectErrorStream(true).redirectOutput(new File("target/" + name + ".log")).start();
        SecondInstance instance = new SecondInstance(p, port);
        await(name + " serves (see target/" + name + ".log)", () -> {
            try {
                return instance.given().get(readyPath).statusCode() == 200;
            } catch (Exception notYet) { // RestAssured throws ConnectException unchecked while it starts
                return false;
            }
        });
        return instance;
    }

    RequestSpecification given() {
        return RestAssured.given().port(port);
    }

    /** Kills it at once, as a crashed server: nothing it holds is given back. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the second instance did not stop");
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /**
     * The second instance of a test class ({@code @RegisterExtension static final}): started once the application
     * under test and its Redis are, before the class's tests; stopped after them, unless a test killed it.
     */
    static final class PerClass implements BeforeAllCallback, AfterAllCallback {

        private final String name;
        private final String readyPath;
        private SecondInstance instance;

        /** Its output goes to {@code target/<name>.log}; it is ready once {@code readyPath} answers 200. */
        PerClass(String name, String readyPath) {
            this.name = name;
            this.readyPath = readyPath;
        }

        @Override
        public void beforeAll(ExtensionContext context) throws IOException {
            instance = start(name, readyPath);
        }

        @Override
        public void afterAll(ExtensionContext context) throws InterruptedException {
            if (instance != null) {
                instance.close();
            }
        }

        RequestSpecification given() {
            return instance.given();
        }

        /** Kills it at once, as a crashed server: nothing it holds is given back. */
        void kill() throws InterruptedException {
            instance.kill();
        }
    }

    /** Only a real fault makes this wait long. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + " not within 30 s");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }
}
