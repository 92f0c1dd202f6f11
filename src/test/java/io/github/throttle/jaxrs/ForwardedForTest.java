package io.github.throttle.jaxrs;

import io.github.throttle.config.Cidr;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ForwardedForTest {

    private final ForwardedFor proxies = new ForwardedFor(List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("2001:db8:ffff::/48")));

    @Test
    void anUntrustedPeerIsTheClientWhateverItForwards() {
        assertEquals("203.0.113.9", proxies.client("203.0.113.9", List.of("for=198.51.100.1"), List.of("198.51.100.2")));
        assertEquals("203.0.113.9", new ForwardedFor(List.of()).client("203.0.113.9", null, List.of("198.51.100.2")));
    }

    @Test
    void onlyATrustedPeersHeadersAreRead() {
        assertTrue(proxies.believes("10.1.2.3"));
        assertTrue(proxies.believes("2001:db8:ffff:0:0:0:0:1"));
        assertFalse(proxies.believes("203.0.113.9"));
        assertFalse(proxies.believes(null));
        assertFalse(new ForwardedFor(List.of()).believes("10.1.2.3"));
    }

    @Test
    void hopsAreWalkedFromTheRightPastTrustedProxies() {
        // the leftmost entry is whatever the client claimed; the first untrusted hop from the right is the client
        assertEquals("198.51.100.7", proxies.client("10.0.0.1", null, List.of("1.2.3.4, 198.51.100.7, 10.0.0.5")));
        assertEquals("198.51.100.7", proxies.client("10.0.0.1", null, List.of("1.2.3.4", "198.51.100.7,10.0.0.5")));
        assertEquals("10.0.0.9", proxies.client("10.0.0.1", null, List.of("10.0.0.9, 10.0.0.5")));
    }

    @Test
    void forwardedIsPreferredAndItsSyntaxIsRead() {
        assertEquals("198.51.100.1", proxies.client("10.0.0.1", List.of("for=198.51.100.1;proto=https;by=10.0.0.1"), List.of("1.1.1.1")));
        assertEquals("198.51.100.2", proxies.client("10.0.0.1", List.of("for=\"198.51.100.2:8443\""), null));
        assertEquals("2001:db8:0:0:0:0:0:7", proxies.client("10.0.0.1", List.of("for=\"[2001:db8::7]:4711\""), null));
        assertEquals("198.51.100.3", proxies.client("10.0.0.1", List.of("For=198.51.100.3, for=10.0.0.2"), null));
        assertEquals("198.51.100.4", proxies.client("10.0.0.1", List.of("for=1.1.1.1", "for=198.51.100.4;by=\"a,b;c\""), null));
    }

    @Test
    void unknownOrObfuscatedHopsAreHandled() {
        assertEquals("_hidden-1", proxies.client("10.0.0.1", List.of("for=\"_hidden-1\""), null));
        assertEquals("10.0.0.1", proxies.client("10.0.0.1", List.of("for=unknown"), null));
        // an unbalanced quote swallows the rest of the line: the walk stops at the trusted peer
        assertEquals("10.0.0.1", proxies.client("10.0.0.1", List.of("for=junk\"quote, for=10.0.0.3"), null));
        assertEquals("10.0.0.1", proxies.client("10.0.0.1", List.of(""), null));
        assertEquals("10.0.0.1", proxies.client("10.0.0.1", null, List.of("not-an-ip")));
        assertEquals("10.0.0.1", proxies.client("10.0.0.1", List.of("for=[2001:db8::1"), null));
    }

    @Test
    void aHundredHopsAreReadWithoutErrorAndOnlyTheRightmostCount() {
        StringBuilder b = new StringBuilder("for=198.51.100.200");
        for (int i = 0; i < 100; i++) {
            b.append(", for=10.0.").append(i / 250).append('.').append(i % 250);
        }
        // beyond 32 trusted hops the walk stops at the last trusted one
        assertEquals("10.0.0.68", proxies.client("10.0.0.1", List.of(b.toString()), null));
    }

    @Test
    void ipv4MappedAddressesMatchIpv4Blocks() {
        assertEquals("198.51.100.8", proxies.client("::ffff:10.1.2.3", null, List.of("198.51.100.8")));
    }
}
