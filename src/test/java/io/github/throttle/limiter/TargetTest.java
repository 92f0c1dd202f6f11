package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.engine.KeyCodec;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.testing.TestCaller;
import io.github.throttle.testing.TestConfig;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A target's store call charges each limit to the right key. */
class TargetTest {

    static class Api {
        @Throttle(limit = 10, duration = 1)
        @Throttle(limit = 100, duration = 60)
        public void byDefaultIdentity() { }

        @Throttle(limit = 10, key = ThrottleKey.User.class)
        @Throttle(limit = 100, duration = 60, key = ThrottleKey.User.class, weight = 3)
        public void byOneResolver() { }

        @Throttle(limit = 10, key = {ThrottleKey.User.class, ThrottleKey.ClientAddress.class})
        public void byTwoResolvers() { }

        @Throttle(limit = 10)
        @Throttle(limit = 100, duration = 60, name = "shared")
        public void inTwoBuckets() { }

        @Throttle(limit = 10, key = ThrottleKey.User.class)
        @Throttle(limit = 100, duration = 60)
        public void byDifferentResolvers() { }
    }

    private final KeyCodec codec = new KeyCodec("throttle");
    private final Targets targets = new Targets(TestConfig.of(), codec, ValidationTest::construct, m -> false);

    @Test
    void theDefaultIdentityIsTheClientAddressWithoutAPrincipal() {
        assertEquals(List.of("throttle:" + Api.class.getName() + "#byDefaultIdentity:ip:10.0.0.7 q0 w1",
                        "throttle:" + Api.class.getName() + "#byDefaultIdentity:ip:10.0.0.7 q1 w1"),
                pairs(call("byDefaultIdentity", caller(null, "10.0.0.7"))));
        assertEquals(List.of("throttle:" + Api.class.getName() + "#byDefaultIdentity:user:ann q0 w1",
                        "throttle:" + Api.class.getName() + "#byDefaultIdentity:user:ann q1 w1"),
                pairs(call("byDefaultIdentity", caller("ann", "10.0.0.7"))));
    }

    @Test
    void oneResolverChargesEveryLimitToOneKeyWithItsOwnWeight() {
        String head = "throttle:" + Api.class.getName() + "#byOneResolver:";
        assertEquals(List.of(head + "user:ann q0 w1", head + "user:ann q1 w3"), pairs(call("byOneResolver", caller("ann", "10.0.0.7"))));
        // no principal: the resolver cannot tell, the caller's default identity is charged instead
        assertEquals(List.of(head + "ip:10.0.0.7 q0 w1", head + "ip:10.0.0.7 q1 w3"), pairs(call("byOneResolver", caller(null, "10.0.0.7"))));
    }

    @Test
    void severalResolversBucketsOrIdentitiesGiveOneKeyEach() {
        String cls = "throttle:" + Api.class.getName();
        assertEquals(List.of(cls + "#byTwoResolvers:user:ann q0 w1", cls + "#byTwoResolvers:ip:10.0.0.7 q0 w1"),
                pairs(call("byTwoResolvers", caller("ann", "10.0.0.7"))));
        assertEquals(List.of(cls + "#inTwoBuckets:ip:10.0.0.7 q0 w1", "throttle:shared:ip:10.0.0.7 q1 w1"),
                pairs(call("inTwoBuckets", caller(null, "10.0.0.7"))));
        assertEquals(List.of(cls + "#byDifferentResolvers:user:ann q0 w1", cls + "#byDifferentResolvers:user:ann q1 w1"),
                pairs(call("byDifferentResolvers", caller("ann", "10.0.0.7"))));
    }

    private StoreCall call(String method, Caller caller) {
        Method m = Arrays.stream(Api.class.getDeclaredMethods()).filter(x -> x.getName().equals(method)).findFirst().orElseThrow();
        return storeCall(targets.of(Api.class, m), caller, codec, 1_000L);
    }

    /** The store call a call on no plan makes, as the limiter builds it. */
    static StoreCall storeCall(Target target, Caller caller, KeyCodec codec, long now) {
        return target.limitsOn(null).charge(caller, now).call();
    }

    /** Each pair as "key quota weight", keys in the call's order. */
    private static List<String> pairs(StoreCall call) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < call.keyCount(); k++) {
            for (int p = call.firstPair(k); p < call.firstPair(k + 1); p++) {
                out.add(call.key(k) + " q" + call.limitIndex(p) + " w" + call.countWeight(p));
            }
        }
        return out;
    }

    private static Caller caller(String user, String address) {
        return TestCaller.of(user, address);
    }
}
