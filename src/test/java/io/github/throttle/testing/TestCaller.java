package io.github.throttle.testing;

import io.github.throttle.Caller;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Map;
import java.util.Optional;

/** A caller made of the given parts: an address, a principal's name, headers and query parameters (each may be missing). */
public record TestCaller(String address, String user, Map<String, String> headers, Map<String, String> query) implements Caller {

    public TestCaller(String address, String user, Map<String, String> headers) {
        this(address, user, headers, Map.of());
    }

    public static TestCaller of(String user, String address) {
        return new TestCaller(address, user, Map.of());
    }

    @Override
    public Optional<String> clientAddress() {
        return Optional.ofNullable(address);
    }

    @Override
    public Optional<Principal> principal() {
        return Optional.ofNullable(user).map(u -> (Principal) () -> u);
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name));
    }

    @Override
    public Optional<String> queryParameter(String name) {
        return Optional.ofNullable(query.get(name));
    }

    @Override
    public Method method() {
        return null;
    }
}
