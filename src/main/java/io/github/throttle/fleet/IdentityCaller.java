package io.github.throttle.fleet;

import io.github.throttle.Caller;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Optional;

/**
 * A caller known only by one identity as the lists write it ({@code ip:}, {@code user:}, {@code key:}): what the
 * plan lists and assignments see of a request from it, to tell which plan it is on.
 */
record IdentityCaller(String address, String user, String key, String keyHeader) implements Caller {

    static IdentityCaller of(String identity, String keyHeader) {
        int colon = identity.indexOf(':');
        String kind = colon < 0 ? "" : identity.substring(0, colon);
        String value = identity.substring(colon + 1);
        return new IdentityCaller(kind.equals("ip") ? value : null, kind.equals("user") ? value : null,
                kind.equals("key") ? value : null, keyHeader);
    }

    @Override
    public Optional<String> clientAddress() {
        return Optional.ofNullable(address);
    }

    @Override
    public Optional<Principal> principal() {
        return user == null ? Optional.empty() : Optional.of(() -> user);
    }

    @Override
    public Optional<String> header(String name) {
        return key != null && name.equalsIgnoreCase(keyHeader) ? Optional.of(key) : Optional.empty();
    }

    @Override
    public Method method() {
        return null;
    }
}
