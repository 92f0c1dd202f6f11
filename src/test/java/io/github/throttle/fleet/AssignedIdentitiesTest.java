package io.github.throttle.fleet;

import io.github.throttle.ThrottleAdmin.Assignment;
import io.github.throttle.testing.TestCaller;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Assignments as calls look them up: by user, key, address and block, the winning plan, each change in place. */
class AssignedIdentitiesTest {

    private static final long NOW = 1_790_000_000_000L;
    private final AssignedIdentities assigned = new AssignedIdentities("X-API-Key");

    private static Assignment on(String plan) {
        return new Assignment(plan, null);
    }

    private String plan(String address, String user, String key) {
        return assigned.match(new TestCaller(address, user, key == null ? Map.of() : Map.of("X-API-Key", key)), NOW);
    }

    @Test
    void aCallIsMatchedByItsUserKeyAddressOrBlock() {
        assigned.put("user:ann", on("pro"));
        assigned.put("key:k1", on("gold"));
        assigned.put("ip:192.0.2.7", on("silver"));
        assigned.put("ip:198.51.100.0/24", on("bronze"));
        assertEquals("pro", plan("203.0.113.1", "ann", null));
        assertEquals("gold", plan("203.0.113.1", null, "k1"));
        assertEquals("silver", plan("192.0.2.7", null, null));
        assertEquals("silver", plan("::ffff:192.0.2.7", null, null), "an IPv4-mapped address is its IPv4 address");
        assertEquals("bronze", plan("198.51.100.200", null, null));
        assertNull(plan("203.0.113.1", "bob", "k2"));
    }

    @Test
    void blockedThenUnlimitedThenPlanNamesInOrderWin() {
        assigned.put("key:k", on("silver"));
        assigned.put("user:ann", on("gold"));
        assertEquals("gold", plan("192.0.2.1", "ann", "k"));
        assigned.put("ip:192.0.2.0/24", on("unlimited"));
        assertEquals("unlimited", plan("192.0.2.1", "ann", "k"));
        assigned.put("ip:192.0.2.1", on("blocked"));
        assertEquals("blocked", plan("192.0.2.1", "ann", "k"));
    }

    @Test
    void anEndedAssignmentMatchesNothingAndTheNextOneWins() {
        assigned.put("key:k", new Assignment("blocked", Instant.ofEpochMilli(NOW)));
        assigned.put("ip:192.0.2.0/24", on("pro"));
        assertEquals("pro", plan("192.0.2.1", null, "k"));
        assertEquals(2, assigned.all().size(), "kept until taken back");
    }

    @Test
    void twoIdentitiesNamingOneCallerAreTakenBackOneByOne() {
        assigned.put("user:ann", on("blocked"));
        assigned.put("user: ann", on("pro"));
        assigned.put("ip:192.0.2.7", on("gold"));
        assigned.put("ip:192.0.2.7/32", on("silver"));
        assigned.put("user:ann", null);
        assertEquals("pro", plan("203.0.113.1", "ann", null));
        assigned.put("user: ann", null);
        assertNull(plan("203.0.113.1", "ann", null));
        assigned.put("ip:192.0.2.7", null);
        assertEquals("silver", plan("192.0.2.7", null, null));
        assigned.put("ip:192.0.2.7/32", null);
        assertNull(plan("192.0.2.7", null, null));
        assertEquals(Map.of(), assigned.all());
    }

    @Test
    void aChangedAssignmentReplacesTheOneBefore() {
        assigned.put("ip:10.0.0.0/8", on("blocked"));
        assigned.put("ip:10.0.0.0/8", on("pro"));
        assertEquals("pro", plan("10.1.2.3", null, null));
        assigned.put("ip:10.0.0.0/8", null);
        assertNull(plan("10.1.2.3", null, null));
    }
}
