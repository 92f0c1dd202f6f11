package io.github.throttle.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/** An address block such as {@code 10.0.0.0/8}, {@code 2001:db8::/32} or a single address. */
public final class Cidr {

    private final byte[] network;
    private final int bits;
    private final String text;

    private Cidr(byte[] network, int bits, String text) {
        this.network = network;
        this.bits = bits;
        this.text = text;
    }

    /** @throws IllegalArgumentException when {@code text} is not a literal address with an optional prefix length */
    public static Cidr parse(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        String addr = slash < 0 ? t : t.substring(0, slash);
        byte[] bytes = literal(addr);
        if (bytes == null) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR block");
        }
        int bits = bytes.length * 8;
        if (slash >= 0) {
            try {
                bits = Integer.parseInt(t.substring(slash + 1));
            } catch (NumberFormatException e) {
                bits = -1;
            }
            if (bits < 0 || bits > bytes.length * 8) {
                throw new IllegalArgumentException("'" + text + "' has a prefix length outside 0.." + bytes.length * 8);
            }
        }
        return new Cidr(mask(bytes, bits), bits, t);
    }

    /** Whether {@code address} (a literal, possibly bracketed IPv6) lies in this block. */
    public boolean contains(String address) {
        byte[] b = literal(address);
        return b != null && contains(b);
    }

    /** Whether the address of these bytes ({@link #literal}) lies in this block. */
    public boolean contains(byte[] b) {
        if (b.length != network.length) {
            // an IPv4-mapped IPv6 address belongs to the IPv4 block
            if (b.length == 16 && network.length == 4 && isMapped(b)) {
                b = Arrays.copyOfRange(b, 12, 16);
            } else {
                return false;
            }
        }
        return Arrays.equals(mask(b, bits), network);
    }

    /** Whether this block holds one address (not written as an IPv4-mapped IPv6 address, which IPv4 callers match too). */
    public boolean single() {
        return bits == network.length * 8 && !(network.length == 16 && isMapped(network));
    }

    /**
     * The block of the one address of these bytes ({@link #literal}), an IPv4-mapped IPv6 address as its IPv4
     * address: equal to a {@link #single()} block parsed from that address, however written.
     */
    public static Cidr exact(byte[] address) {
        byte[] b = address.length == 16 && isMapped(address) ? Arrays.copyOfRange(address, 12, 16) : address;
        return new Cidr(b, b.length * 8, "");
    }

    /** The bytes of a literal IPv4/IPv6 address; {@code null} for anything else (never a DNS lookup). */
    public static byte[] literal(String s) {
        if (s == null) {
            return null;
        }
        String a = s.trim();
        if (a.startsWith("[") && a.endsWith("]")) {
            a = a.substring(1, a.length() - 1);
        }
        int zone = a.indexOf('%');
        if (zone >= 0) {
            a = a.substring(0, zone);
        }
        if (a.isEmpty() || a.length() > 45) {
            return null;
        }
        boolean v6 = a.indexOf(':') >= 0;
        for (int i = 0; i < a.length(); i++) {
            char c = a.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || c == '.' || (v6 && (c == ':' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
            if (!ok) {
                return null;
            }
        }
        if (!v6 && !dottedQuad(a)) {
            return null;
        }
        try {
            // only literals reach here, so no name resolution happens
            return InetAddress.getByName(a).getAddress();
        } catch (UnknownHostException | RuntimeException e) {
            return null;
        }
    }

    private static boolean dottedQuad(String a) {
        String[] parts = a.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    private static boolean isMapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }

    private static byte[] mask(byte[] b, int bits) {
        byte[] m = b.clone();
        for (int i = 0; i < m.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            m[i] = (byte) (m[i] & (0xff << (8 - keep)));
        }
        return m;
    }

    /** Blocks are equal when they hold the same addresses, however written ({@code 10.1.0.0/8} is {@code 10.0.0.0/8}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Cidr c && bits == c.bits && Arrays.equals(network, c.network);
    }

    @Override
    public int hashCode() {
        return 31 * bits + Arrays.hashCode(network);
    }

    @Override
    public String toString() {
        return text;
    }
}
