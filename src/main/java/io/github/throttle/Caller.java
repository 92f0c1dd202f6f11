package io.github.throttle;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Optional;

/** What a {@link ThrottleKey} may know about the call being decided. */
public interface Caller {

    /**
     * The client's address: the peer address, or the address named by {@code Forwarded} /
     * {@code X-Forwarded-For} when the peer is a trusted proxy. Empty outside an HTTP request.
     */
    Optional<String> clientAddress();

    /** The authenticated principal, if any. */
    Optional<Principal> principal();

    /** The first value of a request header; empty if absent or outside an HTTP request. */
    Optional<String> header(String name);

    /** The throttled method. */
    Method method();
}
