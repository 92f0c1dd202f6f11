package io.github.throttle.jaxrs;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleAdmin;
import io.github.throttle.ThrottleKey;
import io.github.throttle.boot.Bootstrap;
import io.github.throttle.cdi.PrincipalLookup;
import io.github.throttle.cdi.ThrottleAdminBean;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.memory.MemoryStore;
import io.github.throttle.metrics.Meters;
import io.github.throttle.testing.LogCapture;
import io.github.throttle.testing.MutableClock;
import io.github.throttle.testing.TestConfig;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Operators' input is bounded: every admin parameter out of range gets a {@code 400} naming it and changes
 * nothing, through the admin resource, the {@link ThrottleAdmin} bean and the limiter over an embedded store.
 */
class AdminInputBoundsTest {

    static class Api {
        @Throttle(limit = 5, duration = 60, name = "search", key = ThrottleKey.ApiKey.class)
        @Throttle(limit = 100, duration = 60, name = "search", key = ThrottleKey.ApiKey.class, plan = "pro")
        public void search() { }
    }

    private static final SecurityContext OPERATOR = new SecurityContext() {
        @Override
        public Principal getUserPrincipal() {
            return () -> "olga";
        }

        @Override
        public boolean isUserInRole(String role) {
            return role.equals("throttle-admin");
        }

        @Override
        public boolean isSecure() {
            return true;
        }

        @Override
        public String getAuthenticationScheme() {
            return "BASIC";
        }
    };

    /** An identity of 1,024 characters, the longest taken. */
    private static final String LONG_KEY = "key:" + "k".repeat(1_020);

    private final MutableClock clock = new MutableClock(1_699_999_980_000L);
    private final Limiter limiter;
    private final ThrottleAdmin admin;
    private final ThrottleAdminResource api;

    AdminInputBoundsTest() throws Exception {
        Config c = TestConfig.of("throttle.admin.enabled", "true");
        limiter = Bootstrap.assemble(ThrottleSettings.read(c), c, new MemoryStore(clock), clock, type -> null, m -> false, Meters.NONE,
                Optional.empty());
        limiter.target(Api.class, Api.class.getDeclaredMethod("search"));
        admin = adminBean(limiter);
        api = new ThrottleAdminResource(admin, limiter.settings());
    }

    /** The application's ThrottleAdmin bean, its injection points filled as the container fills them (no Principal bean). */
    private static ThrottleAdmin adminBean(Limiter limiter) throws ReflectiveOperationException {
        PrincipalLookup principals = new PrincipalLookup();
        Object noPrincipalBean = Proxy.newProxyInstance(AdminInputBoundsTest.class.getClassLoader(), new Class<?>[] {Instance.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "isResolvable" -> false;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        inject(principals, "principal", noPrincipalBean);
        ThrottleAdminBean bean = new ThrottleAdminBean();
        inject(bean, "limiter", limiter);
        inject(bean, "principals", principals);
        return bean;
    }

    private static void inject(Object bean, String field, Object value) throws ReflectiveOperationException {
        Field f = bean.getClass().getDeclaredField(field);
        f.setAccessible(true);
        f.set(bean, value);
    }

    @AfterEach
    void close() {
        limiter.close();
    }

    /** What the admin shows of its state: what must not change when a request is refused. */
    private List<Object> state() {
        return List.of(admin.assignments(), admin.buckets(), admin.usage("search", "", "key:acme"));
    }

    /** A 400 problem whose detail starts with the parameter's name, and nothing changed or was logged as changed. */
    private void refusedNaming(String parameter, Supplier<Response> request) {
        List<Object> before = state();
        try (LogCapture log = new LogCapture()) {
            Response r = request.get();
            String body = String.valueOf(r.getEntity());
            assertEquals(400, r.getStatus(), body);
            assertTrue(body.contains("\"detail\":\"" + parameter + ":") || body.contains("\"detail\":\"" + parameter + " "),
                    "names " + parameter + ": " + body);
            assertTrue(body.length() < 1_000, "the body does not echo what is too long: " + body.length() + " characters");
            assertEquals(List.of(), log.at(Level.INFO), "no change logged");
        }
        assertEquals(before, state(), "nothing changed");
    }

    @Test
    void anAssignmentForLongerThanAHundredYearsIsA400NamingFor() {
        refusedNaming("for", () -> api.assign(OPERATOR, "user:x", null, "blocked", "9223372036854775807m"));
        refusedNaming("for", () -> api.assign(OPERATOR, "user:x", null, "blocked", "200000000000d"));
        refusedNaming("for", () -> api.assign(OPERATOR, "user:x", null, "blocked", "PT2562047788015215H"));
        refusedNaming("for", () -> api.assign(OPERATOR, "user:x", null, "blocked", "36526d"));
        refusedNaming("for", () -> api.assign(OPERATOR, "user:x", null, "blocked", "1e300s"));
        assertEquals(204, api.assign(OPERATOR, "user:x", null, "blocked", "36525d").getStatus(), "a hundred years is in range");
        assertEquals(clock.instant().plus(Duration.ofDays(36_525)), admin.assignments().get("user:x").until());
    }

    @Test
    void anIdentityLongerThan1024CharactersIsA400NamingIt() {
        refusedNaming("identity", () -> api.assign(OPERATOR, LONG_KEY + "k", null, "pro", "1h"));
        refusedNaming("identity", () -> api.assign(OPERATOR, null, LONG_KEY + "k", "pro", "1h"));
        refusedNaming("identity", () -> api.unassign(OPERATOR, LONG_KEY + "k", null));
        refusedNaming("identity", () -> api.usage(OPERATOR, "search", null, LONG_KEY + "k", null));
        refusedNaming("identity", () -> api.reset(OPERATOR, "search", null, LONG_KEY + "k"));
        assertEquals(204, api.assign(OPERATOR, null, LONG_KEY, "pro", "1h").getStatus(), "1,024 characters are in range");
        assertEquals("pro", admin.assignments().get(LONG_KEY).plan());
    }

    @Test
    void unassignTakesOnlyAnIdentityNotAnotherSharedSetting() {
        assertEquals(204, api.override(OPERATOR, "search", null, List.of("7/1m")).getStatus());
        // the field that keeps that override
        refusedNaming("identity", () -> api.unassign(OPERATOR, "limits||search", null));
        refusedNaming("identity", () -> api.unassign(OPERATOR, "#version", null));
    }

    @Test
    void bucketsPlansRatesAndCountsOutOfRangeAreA400NamingThem() {
        String longName = "b".repeat(1_025);
        refusedNaming("bucket", () -> api.reset(OPERATOR, longName, "key:acme", null));
        refusedNaming("bucket", () -> api.usage(OPERATOR, longName, null, "key:acme", null));
        refusedNaming("bucket", () -> api.clearOverride(OPERATOR, longName, null));
        refusedNaming("bucket", () -> api.override(OPERATOR, longName, null, List.of("1/1m")));
        refusedNaming("bucket", () -> api.top(OPERATOR, longName, "3"));
        refusedNaming("plan", () -> api.assign(OPERATOR, "user:x", null, longName, "1h"));
        refusedNaming("plan", () -> api.override(OPERATOR, "search", longName, List.of("1/1m")));
        refusedNaming("plan", () -> api.usage(OPERATOR, "search", longName, "key:acme", null));
        refusedNaming("rate", () -> api.override(OPERATOR, "search", null, List.of("5/36526d")));
        refusedNaming("rate", () -> api.override(OPERATOR, "search", null, List.of("5/1m", "5/9223372036854775807m")));
        List<String> many = new ArrayList<>();
        for (int i = 1; i <= 33; i++) {
            many.add(i + "/" + i + "m");
        }
        refusedNaming("rate", () -> api.override(OPERATOR, "search", null, many));
        refusedNaming("n", () -> api.top(OPERATOR, "search", "10001"));
        refusedNaming("n", () -> api.top(OPERATOR, "search", "9223372036854775808"));
    }
}
