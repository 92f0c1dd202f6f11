package io.github.throttle.valkey;

import io.github.throttle.testing.ServerKind;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a test class on Valkey: while it runs, the launchers ({@code RedisProcess}, {@code RedisSentinelProcess},
 * {@code RedisClusterProcess}) start {@code valkey-server}, and each checks that what it started says
 * {@code server_name:valkey} in {@code INFO server}, failing the class otherwise.
 *
 * <p>Where Valkey may be missing: {@code ./mvnw verify} must pass on a machine with only a JDK. So when no
 * {@code valkey-server} is found ({@code $VALKEY_SERVER}, {@code PATH}), the Valkey classes are not run and the
 * build says so once, in {@link #NOT_RUN}; unless the environment has {@code CI=true} or the system property
 * {@code throttle.require.valkey} is {@code true}: then they run, and a missing Valkey fails them. This is the only
 * place where a test is left out because of its environment.
 */
public final class ValkeyServers implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

    /** The one line a build without Valkey prints. */
    static final String NOT_RUN = "Valkey suites not run: no valkey-server on PATH (CI requires it)";

    private static final AtomicBoolean TOLD = new AtomicBoolean();
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ValkeyServers.class);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (required() || installed()) {
            return ConditionEvaluationResult.enabled("Valkey is installed or required");
        }
        if (TOLD.compareAndSet(false, true)) {
            tell(NOT_RUN);
        }
        return ConditionEvaluationResult.disabled(NOT_RUN);
    }

    /**
     * Writes {@code line} to the JVM's own standard error, which the build prints: {@code System.out} and
     * {@code System.err} of tests go to files under {@code target/surefire-reports} (redirectTestOutputToFile).
     */
    private static void tell(String line) {
        try {
            FileOutputStream err = new FileOutputStream(FileDescriptor.err);
            err.write((line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
            err.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a missing Valkey must fail the build: on CI, or when asked for. */
    static boolean required() {
        return "true".equals(System.getenv("CI")) || Boolean.getBoolean("throttle.require.valkey");
    }

    private static boolean installed() {
        try {
            return ServerKind.VALKEY.installed().isPresent();
        } catch (IllegalStateException e) {
            return true;  // $VALKEY_SERVER names no executable: run, and fail saying so
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        // a nested class restores what its enclosing class set
        context.getStore(NAMESPACE).put(ServerKind.class, ServerKind.current());
        ServerKind.use(ServerKind.VALKEY);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ServerKind.use(context.getStore(NAMESPACE).get(ServerKind.class, ServerKind.class));
    }
}
