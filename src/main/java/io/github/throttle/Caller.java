package io.github.throttle;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Optional;

/** What a {@link ThrottleKey} may know about the call being decided. */
public interface Caller {

    /**
     * The client's address: the peer address, or the address named by {@code Forwarded} /
     * {@code X-Forwarded-For} when the peer is a trusted proxy. Empty outside an HTTP request.
     *
     * @return the client's address, or empty when there is none
     */
    Optional<String> clientAddress();

    /**
     * The authenticated principal, if any.
     *
     * @return the principal, or empty when the caller is not authenticated
     */
    Optional<Principal> principal();

    /**
     * The first value of a request header; empty if absent or outside an HTTP request.
     *
     * @param name the header name
     * @return the header's first value, or empty
     */
    Optional<String> header(String name);

    /**
     * The first value of a query parameter of the request; empty if absent or outside an HTTP request.
     *
     * @param name the parameter name
     * @return the parameter's first value, or empty
     */
    default Optional<String> queryParameter(String name) {
        return Optional.empty();
    }

    /**
     * The throttled method.
     *
     * @return the method being called (for an annotated class, the business method invoked)
     */
    Method method();
}
