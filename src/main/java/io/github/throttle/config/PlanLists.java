package io.github.throttle.config;

import io.github.throttle.Caller;
import org.eclipse.microprofile.config.Config;

import java.security.Principal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The lists {@code throttle.plans.<plan>} that put callers on a plan, in the order a call is matched against
 * them: {@code blocked}, {@code unlimited}, then each plan named in an annotation, by name. Each list is a
 * comma-separated list of entries {@code ip:<address or CIDR>} (the client address after trusted-proxy
 * resolution), {@code user:<name>} (the principal) or {@code key:<value>} (the API-key header). Lists are read
 * by name, so that an environment variable such as {@code THROTTLE_PLANS_PRO} works.
 */
public final class PlanLists {

    public static final String PREFIX = "throttle.plans.";
    /** The plan of calls that no list or plan bean puts on a plan (the {@code plan} tag of their metrics). */
    public static final String DEFAULT = "default";
    public static final String BLOCKED = "blocked";
    public static final String UNLIMITED = "unlimited";
    /** The plans no {@code @Throttle(plan = ...)} may name. */
    public static final List<String> RESERVED = List.of(DEFAULT, UNLIMITED, BLOCKED);

    private final List<PlanList> lists;
    private final String keyHeader;

    /**
     * The plan as limits are keyed by it: the default limits are {@code ""}, however they were written (omitted,
     * blank, or {@value #DEFAULT}); any other name trimmed.
     */
    public static String limitsKey(String plan) {
        return plan == null || plan.isBlank() || plan.trim().equals(DEFAULT) ? "" : plan.trim();
    }

    /** The plan as clients and metrics see it: {@value #DEFAULT} for the default limits. */
    public static String shown(String plan) {
        return plan == null || plan.isEmpty() ? DEFAULT : plan;
    }

    private PlanLists(List<PlanList> lists, String keyHeader) {
        this.lists = lists;
        this.keyHeader = keyHeader;
    }

    /** The entries of one list: single addresses are looked up, blocks of several scanned. */
    private record PlanList(String plan, Set<String> users, Set<String> keys, Set<Cidr> addresses, List<Cidr> blocks) {

        static PlanList of(String plan, Set<String> users, Set<String> keys, List<Cidr> entries) {
            return new PlanList(plan, Set.copyOf(users), Set.copyOf(keys),
                    entries.stream().filter(Cidr::single).collect(java.util.stream.Collectors.toUnmodifiableSet()),
                    entries.stream().filter(c -> !c.single()).toList());
        }

        boolean isEmpty() {
            return users.isEmpty() && keys.isEmpty() && addresses.isEmpty() && blocks.isEmpty();
        }

        boolean matches(Caller caller, String keyHeader, Address address) {
            if (!users.isEmpty()) {
                Optional<Principal> p = caller.principal();
                if (p.isPresent() && users.contains(p.get().getName())) {
                    return true;
                }
            }
            if (!keys.isEmpty()) {
                Optional<String> k = caller.header(keyHeader);
                if (k.isPresent() && keys.contains(k.get())) {
                    return true;
                }
            }
            if (!addresses.isEmpty() || !blocks.isEmpty()) {
                byte[] a = address.bytes();
                if (a != null) {
                    if (addresses.contains(address.exact())) {
                        return true;
                    }
                    for (Cidr c : blocks) {
                        if (c.contains(a)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
    }

    /** A caller's address, parsed once for every list, and only when a list names addresses. */
    private static final class Address {
        private final Caller caller;
        private boolean parsed;
        private byte[] bytes;
        private Cidr exact;

        Address(Caller caller) {
            this.caller = caller;
        }

        /** Its bytes; null when the caller has none, or not a literal one. */
        byte[] bytes() {
            if (!parsed) {
                parsed = true;
                bytes = caller.clientAddress().map(Cidr::literal).orElse(null);
                exact = bytes == null ? null : Cidr.exact(bytes);
            }
            return bytes;
        }

        Cidr exact() {
            return exact;
        }
    }

    /**
     * Reads the lists of the reserved plans and of {@code plans}.
     *
     * @param plans     the plans named in annotations
     * @param keyHeader the header {@code key:} entries are compared with
     * @throws InvalidThrottleException naming the key of an entry with an unknown prefix, a bad address block or
     *                                  an entry that is in two lists
     */
    public static PlanLists read(Config config, Collection<String> plans, String keyHeader) {
        List<String> order = new ArrayList<>(List.of(BLOCKED, UNLIMITED));
        order.addAll(new TreeSet<>(plans));
        Map<Object, String> seenIn = new HashMap<>();
        List<PlanList> lists = new ArrayList<>();
        for (String plan : order) {
            String key = PREFIX + plan;
            Set<String> users = new LinkedHashSet<>();
            Set<String> keys = new LinkedHashSet<>();
            List<Cidr> blocks = new ArrayList<>();
            for (String raw : config.getOptionalValue(key, String.class).orElse("").split(",")) {
                String entry = raw.trim();
                if (entry.isEmpty()) {
                    continue;
                }
                Object same;
                try {
                    same = add(entry, users, keys, blocks);
                } catch (IllegalArgumentException e) {
                    throw ThrottleSettings.invalid(key, LoggedIdentity.of(entry), e.getMessage());
                }
                String other = seenIn.putIfAbsent(same, key);
                if (other != null && !other.equals(key)) {
                    throw ThrottleSettings.invalid(key, LoggedIdentity.of(entry), "the same entry is in " + other + "; a caller is on one plan");
                }
            }
            PlanList list = PlanList.of(plan, users, keys, blocks);
            if (!list.isEmpty()) {
                lists.add(list);
            }
        }
        return new PlanLists(List.copyOf(lists), keyHeader);
    }

    /**
     * Lists built from entries given per plan (say, assignments made while running), matched in the same order as
     * the configured lists: {@code blocked}, {@code unlimited}, then the other plans by name.
     *
     * @throws IllegalArgumentException naming an entry that is not {@code ip:}, {@code user:} or {@code key:}
     */
    public static PlanLists of(Map<String, List<String>> entriesByPlan, String keyHeader) {
        List<String> order = new ArrayList<>(List.of(BLOCKED, UNLIMITED));
        entriesByPlan.keySet().stream().filter(p -> !p.equals(BLOCKED) && !p.equals(UNLIMITED)).sorted().forEach(order::add);
        List<PlanList> lists = new ArrayList<>();
        for (String plan : order) {
            Set<String> users = new LinkedHashSet<>();
            Set<String> keys = new LinkedHashSet<>();
            List<Cidr> blocks = new ArrayList<>();
            for (String entry : entriesByPlan.getOrDefault(plan, List.of())) {
                add(entry.trim(), users, keys, blocks);
            }
            PlanList list = PlanList.of(plan, users, keys, blocks);
            if (!list.isEmpty()) {
                lists.add(list);
            }
        }
        return new PlanLists(List.copyOf(lists), keyHeader);
    }

    /**
     * Adds one entry ({@code ip:<address or CIDR>}, {@code user:<name>}, {@code key:<value>}) to the sets it goes
     * in; returns what makes it the same entry as another.
     *
     * @throws IllegalArgumentException saying why the entry is not one
     */
    private static Object add(String entry, Set<String> users, Set<String> keys, List<Cidr> blocks) {
        int colon = entry.indexOf(':');
        String kind = colon < 0 ? "" : entry.substring(0, colon);
        String value = entry.substring(colon + 1).trim();
        if (value.isEmpty() && !kind.isEmpty()) {
            throw new IllegalArgumentException("the entry has no value after " + kind + ":");
        }
        return switch (kind) {
            case "user" -> {
                users.add(value);
                yield "user:" + value;
            }
            case "key" -> {
                keys.add(value);
                yield "key:" + value;
            }
            case "ip" -> {
                Cidr c = Cidr.parse(value);
                blocks.add(c);
                yield c;
            }
            default -> throw new IllegalArgumentException("an entry is ip:<address or CIDR>, user:<name> or key:<value>");
        };
    }

    /**
     * Why {@code entry} is not an entry of a list, if it is not.
     */
    public static Optional<String> checkEntry(String entry) {
        try {
            add(entry.trim(), new HashSet<>(), new HashSet<>(), new ArrayList<>());
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The plan of the first list that names the caller, or null when none does. */
    public String match(Caller caller) {
        if (lists.isEmpty()) {
            return null;
        }
        Address address = new Address(caller);
        for (PlanList l : lists) {
            if (l.matches(caller, keyHeader, address)) {
                return l.plan();
            }
        }
        return null;
    }

    /** Whether a list for {@code plan} names anyone. */
    public boolean names(String plan) {
        return lists.stream().anyMatch(l -> l.plan().equals(plan));
    }
}
