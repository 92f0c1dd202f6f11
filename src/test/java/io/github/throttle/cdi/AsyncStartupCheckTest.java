package io.github.throttle.cdi;

import com.example.app.Exports;
import com.example.app.Feeds;
import com.example.app.Followed;
import com.example.app.Jobs;
import io.github.throttle.ThrottledException;
import io.github.throttle.config.InvalidThrottleException;
import io.github.throttle.testing.TestConfig;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * At start-up, in a real CDI container: an in-flight limit on a bean method whose result runs work after it
 * returns, of a type whose end Throttle does not follow, fails the deployment naming the method; the types it
 * follows, and plain ones, start. So does a limit declared where the interceptor cannot reach the method (on an
 * interface method it implements, or a superclass method it overrides, without a binding of its own). The beans are the application's, outside Throttle's packages, which start-up
 * leaves alone.
 */
class AsyncStartupCheckTest {

    @Test
    void inFlightOnAMethodReturningAReactorFluxFailsStartUpNamingIt() {
        String message = startUpFailure(Feeds.class);
        assertTrue(message.startsWith("Invalid @Throttle on " + Feeds.class.getName() + "#news: "), message);
        assertTrue(message.contains("inFlight") && message.contains(Flux.class.getName()), message);
    }

    @Test
    void inFlightOnAMethodReturningAFutureFailsStartUpNamingIt() {
        String message = startUpFailure(Jobs.class);
        assertTrue(message.startsWith("Invalid @Throttle on " + Jobs.class.getName() + "#submit: "), message);
        assertTrue(message.contains(Future.class.getName()), message);
    }

    @Test
    void theTypesWhoseEndIsFollowedStart() {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Followed.class)) {
            assertEquals("a", cdi.bean(Followed.class).plain());
        }
    }

    @Test
    void aLimitOnAnInterfaceMethodNoInterceptorReachesFailsStartUpNamingIt() {
        String message = startUpFailure(Exports.Bean.class);
        assertTrue(message.startsWith("Invalid @Throttle for " + Exports.Bean.class.getName() + "#export: "), message);
        assertTrue(message.contains("put @Throttle on Bean.export itself"), message);
    }

    @Test
    void aLimitOnAnOverriddenSuperclassMethodNoInterceptorReachesFailsStartUpNamingIt() {
        String message = startUpFailure(Exports.Overriding.class);
        assertTrue(message.startsWith("Invalid @Throttle for " + Exports.Overriding.class.getName() + "#report: "), message);
    }

    @Test
    void anInheritedMethodLimitReachedThroughTheClassesBindingIsTheOneThatApplies() {
        try (CdiContainer cdi = CdiContainer.start(TestConfig.of(), Exports.ClassLimited.class)) {
            Exports exports = cdi.bean(Exports.ClassLimited.class);
            assertEquals("exported", exports.export());
            assertEquals("exported", exports.export());
            // the interface method's 2 per 10 minutes, not the class's 100
            assertThrows(ThrottledException.class, exports::export);
        }
    }

    private static String startUpFailure(Class<?> bean) {
        RuntimeException e = assertThrows(RuntimeException.class, () -> CdiContainer.start(TestConfig.of(), bean).close());
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidThrottleException) {
                return t.getMessage();
            }
        }
        throw new AssertionError("start-up failed, but not for an invalid @Throttle", e);
    }
}
