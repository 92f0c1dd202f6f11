package io.github.throttle.fleet;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleAdmin.Assignment;
import io.github.throttle.config.Cidr;
import io.github.throttle.config.PlanLists;

import java.security.Principal;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The assignments one instance applies, indexed the way calls look them up: users, API keys and single
 * addresses by value, address blocks scanned. One assignment is added or removed in place, at the cost of that
 * one; calls read concurrently and never write. An assignment that ended stays until it is removed, and matches
 * nothing from its end on, by the clock.
 */
final class AssignedIdentities {

    /** Every assignment applied, ended ones included, by identity as the lists write it. */
    private final Map<String, Assignment> byIdentity = new ConcurrentHashMap<>();
    /** The identities naming each user ({@code user:ann} and {@code user: ann} are one), API key and single address. */
    private final Map<Object, Set<String>> users = new ConcurrentHashMap<>();
    private final Map<Object, Set<String>> keys = new ConcurrentHashMap<>();
    private final Map<Object, Set<String>> addresses = new ConcurrentHashMap<>();
    /** The address blocks of more than one address, by identity. */
    private final Map<String, Cidr> blocks = new ConcurrentHashMap<>();
    private final String keyHeader;

    AssignedIdentities(String keyHeader) {
        this.keyHeader = keyHeader;
    }

    /** Every assignment applied, ended ones included. */
    Map<String, Assignment> all() {
        return byIdentity;
    }

    /** Applies an assignment of {@code identity} (null: none), in place of the one it had. */
    void put(String identity, Assignment assignment) {
        if (assignment == null) {
            remove(identity);
            return;
        }
        byIdentity.put(identity, assignment);
        Object value = value(identity);
        if (value instanceof Cidr c && !c.single()) {
            blocks.put(identity, c);
        } else {
            index(identity).computeIfAbsent(value, v -> ConcurrentHashMap.newKeySet()).add(identity);
        }
    }

    private void remove(String identity) {
        if (byIdentity.remove(identity) == null) {
            return;
        }
        Object value = value(identity);
        if (value instanceof Cidr c && !c.single()) {
            blocks.remove(identity);
        } else {
            index(identity).computeIfPresent(value, (v, ids) -> ids.remove(identity) && ids.isEmpty() ? null : ids);
        }
    }

    /** The index of identities of this one's kind. */
    private Map<Object, Set<String>> index(String identity) {
        return identity.startsWith("user:") ? users : identity.startsWith("key:") ? keys : addresses;
    }

    /**
     * The plan of the live assignments naming the caller that wins: {@code blocked}, then {@code unlimited}, then
     * plan names in order; null when none does.
     */
    String match(Caller caller, long now) {
        if (byIdentity.isEmpty()) {
            return null;
        }
        String best = null;
        if (!users.isEmpty()) {
            Optional<Principal> user = caller.principal();
            if (user.isPresent()) {
                best = better(best, users.get(user.get().getName()), now);
            }
        }
        if (!keys.isEmpty()) {
            Optional<String> key = caller.header(keyHeader);
            if (key.isPresent()) {
                best = better(best, keys.get(key.get()), now);
            }
        }
        if (!addresses.isEmpty() || !blocks.isEmpty()) {
            // parsed only when an assignment names an address
            byte[] address = caller.clientAddress().map(Cidr::literal).orElse(null);
            if (address != null) {
                best = better(best, addresses.get(Cidr.exact(address)), now);
                for (Map.Entry<String, Cidr> b : blocks.entrySet()) {
                    if (b.getValue().contains(address)) {
                        best = better(best, Set.of(b.getKey()), now);
                    }
                }
            }
        }
        return best;
    }

    /** The better of {@code best} and the plans of these identities' live assignments. */
    private String better(String best, Set<String> identities, long now) {
        if (identities == null) {
            return best;
        }
        for (String id : identities) {
            Assignment a = byIdentity.get(id);
            if (a != null && (a.until() == null || a.until().toEpochMilli() > now) && (best == null || rank(a.plan(), best) < 0)) {
                best = a.plan();
            }
        }
        return best;
    }

    /** The order plans win in: {@code blocked}, {@code unlimited}, then by name. */
    private static int rank(String plan, String other) {
        int p = order(plan);
        int o = order(other);
        return p != o ? Integer.compare(p, o) : plan.compareTo(other);
    }

    private static int order(String plan) {
        return plan.equals(PlanLists.BLOCKED) ? 0 : plan.equals(PlanLists.UNLIMITED) ? 1 : 2;
    }

    /**
     * What a call is matched on for this identity: the name of {@code user:<name>}, the value of {@code key:<value>}
     * (trimmed), or the block of {@code ip:<address or CIDR>}.
     *
     * @throws IllegalArgumentException when it is no identity ({@link PlanLists#checkEntry} tells first)
     */
    private static Object value(String identity) {
        int colon = identity.indexOf(':');
        String kind = colon < 0 ? "" : identity.substring(0, colon);
        String value = identity.substring(colon + 1).trim();
        return switch (kind) {
            case "user", "key" -> value;
            case "ip" -> Cidr.parse(value);
            default -> throw new IllegalArgumentException("not an identity: " + identity);
        };
    }
}
