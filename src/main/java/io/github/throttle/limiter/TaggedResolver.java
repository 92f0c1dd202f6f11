package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleKey;

import java.util.Optional;

/**
 * A {@link ThrottleKey} with the tag that keeps the identities it yields apart from other resolvers':
 * {@code ip}, {@code user}, {@code key}, {@code all}, else the resolver's class name.
 */
final class TaggedResolver {

    private final String tag;
    private final ThrottleKey resolver;

    TaggedResolver(ThrottleKey resolver) {
        this.resolver = resolver;
        if (resolver instanceof ThrottleKey.ClientAddress) {
            tag = "ip";
        } else if (resolver instanceof ThrottleKey.User) {
            tag = "user";
        } else if (resolver instanceof ThrottleKey.Everyone) {
            tag = "all";
        } else if (resolver.getClass() == ThrottleKey.ApiKey.class) {
            tag = "key";
        } else {
            tag = resolver.getClass().getName();
        }
    }

    /** The identity {@code tag:value}, or {@code null} when the resolver cannot tell. */
    String identify(Caller caller) {
        Optional<String> v = resolver.identify(caller);
        if (v == null || v.isEmpty() || v.get().isEmpty()) {
            return null;
        }
        return tag + ":" + v.get();
    }

    /** The caller's default identity: the principal, else the client address, else everyone. */
    static String defaultIdentity(Caller caller) {
        var p = caller.principal();
        if (p.isPresent() && p.get().getName() != null && !p.get().getName().isEmpty()) {
            return "user:" + p.get().getName();
        }
        var a = caller.clientAddress();
        if (a.isPresent() && !a.get().isEmpty()) {
            return "ip:" + a.get();
        }
        return "all:*";
    }
}
