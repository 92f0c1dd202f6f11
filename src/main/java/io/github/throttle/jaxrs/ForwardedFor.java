package io.github.throttle.jaxrs;

import io.github.throttle.config.Cidr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds the client address behind trusted proxies. {@code Forwarded} (RFC 7239), else
 * {@code X-Forwarded-For}, is believed only when the peer is a trusted proxy; hops are walked from the right
 * past trusted proxies and the first untrusted one is the client. A hop that is {@code unknown} or not an
 * address stops the walk at the last trusted proxy; an obfuscated identifier ({@code _abc}) is taken as the
 * client's identity. At most {@link #MAX_HOPS} hops are read.
 */
final class ForwardedFor {

    static final int MAX_HOPS = 32;

    private final List<Cidr> trusted;

    public ForwardedFor(List<Cidr> trusted) {
        this.trusted = trusted;
    }

    /** Whether the forwarding headers are read for a connection from {@code peer}: only from a trusted proxy. */
    public boolean believes(String peer) {
        return peer != null && !trusted.isEmpty() && trusted(peer);
    }

    /**
     * @param peer       the address of the connection's peer
     * @param forwarded  the {@code Forwarded} header lines, or {@code null}
     * @param xForwarded the {@code X-Forwarded-For} header lines, or {@code null}
     */
    public String client(String peer, List<String> forwarded, List<String> xForwarded) {
        return believes(peer) ? behindTrusted(peer, forwarded, xForwarded) : peer;
    }

    /** As {@link #client}, for a peer already known to be a trusted proxy ({@link #believes}). */
    String behindTrusted(String peer, List<String> forwarded, List<String> xForwarded) {
        List<String> hops;
        if (forwarded != null && !forwarded.isEmpty()) {
            hops = forHops(forwarded);
        } else if (xForwarded != null && !xForwarded.isEmpty()) {
            hops = new ArrayList<>();
            for (String line : xForwarded) {
                for (String h : line.split(",")) {
                    hops.add(h.trim());
                }
            }
        } else {
            return peer;
        }
        String candidate = peer;
        int seen = 0;
        for (int i = hops.size() - 1; i >= 0 && seen < MAX_HOPS; i--, seen++) {
            String hop = hops.get(i).trim();
            if (hop.length() >= 2 && hop.startsWith("\"") && hop.endsWith("\"")) {
                hop = hop.substring(1, hop.length() - 1);
            }
            if (hop.startsWith("_") && hop.length() > 1 && hop.length() <= 64 && hop.chars().allMatch(ForwardedFor::obfChar)) {
                return hop;
            }
            String addr = address(hop);
            if (addr == null) {
                return candidate;
            }
            if (!trusted(addr)) {
                return addr;
            }
            candidate = addr;
        }
        return candidate;
    }

    private boolean trusted(String addr) {
        for (Cidr c : trusted) {
            if (c.contains(addr)) {
                return true;
            }
        }
        return false;
    }

    private static boolean obfChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    }

    /** The literal address of a node ({@code 192.0.2.1}, {@code 192.0.2.1:80}, {@code [2001:db8::1]:80}), else null. */
    static String address(String node) {
        String n = node.trim();
        if (n.startsWith("\"") && n.endsWith("\"") && n.length() >= 2) {
            n = n.substring(1, n.length() - 1);
        }
        if (n.startsWith("[")) {
            int end = n.indexOf(']');
            if (end < 0) {
                return null;
            }
            n = n.substring(1, end);
        } else if (n.indexOf(':') > 0 && n.indexOf(':') == n.lastIndexOf(':')) {
            n = n.substring(0, n.indexOf(':'));
        }
        byte[] b = Cidr.literal(n);
        if (b == null) {
            return null;
        }
        try {
            return java.net.InetAddress.getByAddress(b).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    /** The {@code for=} node of each element of {@code Forwarded} lines, in order; an element without one gives "". */
    static List<String> forHops(List<String> lines) {
        List<String> hops = new ArrayList<>();
        for (String line : lines) {
            StringBuilder token = new StringBuilder();
            String forValue = "";
            boolean quoted = false;
            for (int i = 0; i <= line.length(); i++) {
                char c = i < line.length() ? line.charAt(i) : ',';
                if (quoted) {
                    if (c == '\\' && i + 1 < line.length()) {
                        token.append(line.charAt(++i));
                        continue;
                    }
                    if (c == '"') {
                        quoted = false;
                    }
                    token.append(c);
                    continue;
                }
                if (c == '"') {
                    quoted = true;
                    token.append(c);
                } else if (c == ';' || c == ',') {
                    String pair = token.toString().trim();
                    int eq = pair.indexOf('=');
                    if (eq > 0 && pair.substring(0, eq).trim().toLowerCase(Locale.ROOT).equals("for")) {
                        forValue = pair.substring(eq + 1).trim();
                    }
                    token.setLength(0);
                    if (c == ',') {
                        hops.add(forValue);
                        forValue = "";
                        if (hops.size() > 4 * MAX_HOPS) {
                            // only the rightmost hops matter; drop the oldest
                            hops.subList(0, hops.size() - MAX_HOPS).clear();
                        }
                    }
                } else {
                    token.append(c);
                }
            }
        }
        return hops;
    }
}
