package io.github.throttle.plan;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleKey;

import java.util.Optional;

/** One resolver of a plan, with the tag that keeps its identities apart from other resolvers'. */
final class Identity {

    final String tag;
    final ThrottleKey resolver;

    private Identity(String tag, ThrottleKey resolver) {
        this.tag = tag;
        this.resolver = resolver;
    }

    static Identity of(ThrottleKey resolver) {
        String tag;
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
        return new Identity(tag, resolver);
    }

    /** {@code tag:value}, or {@code null} when the resolver cannot tell. */
    String resolve(Caller caller) {
        Optional<String> v = resolver.identify(caller);
        if (v == null || v.isEmpty() || v.get().isEmpty()) {
            return null;
        }
        return tag + ":" + v.get();
    }

    /** The principal, else the client address, else everyone (a call outside HTTP with no principal). */
    static String fallback(Caller caller) {
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
