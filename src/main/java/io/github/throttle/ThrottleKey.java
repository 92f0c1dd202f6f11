package io.github.throttle;

import java.security.Principal;
import java.util.Optional;

/**
 * Tells who a call is charged to. Name implementations in {@link Throttle#key()}: the built-in ones below, or
 * your own class — a CDI bean if one is resolvable, else instantiated once through its public no-argument
 * constructor.
 *
 * <p>A resolver that returns empty for a call (say, the API-key header is missing) does not put the caller
 * into a shared bucket: the call is charged to the default identity instead (the principal, else the client
 * address). Resolvers are called on request threads, possibly an event loop: they must not block.
 */
@FunctionalInterface
public interface ThrottleKey {

    /**
     * The caller's identity for this limit, or empty when this resolver cannot tell.
     *
     * @param caller what is known about the call
     * @return the identity, or empty to charge the call to the default identity
     */
    Optional<String> identify(Caller caller);

    /** The client address (see {@link Caller#clientAddress()} for proxies). */
    final class ClientAddress implements ThrottleKey {
        @Override
        public Optional<String> identify(Caller caller) {
            return caller.clientAddress();
        }
    }

    /** The authenticated principal's name. */
    final class User implements ThrottleKey {
        @Override
        public Optional<String> identify(Caller caller) {
            return caller.principal().map(Principal::getName);
        }
    }

    /**
     * The value of a request header, e.g. an API key. Named in {@link Throttle#key()}, it reads the header
     * named by {@code throttle.key.header} (default {@code X-API-Key}); subclass and call
     * {@link #ApiKey(String)} to read another one.
     */
    class ApiKey implements ThrottleKey {
        /** The header read by default. */
        public static final String DEFAULT_HEADER = "X-API-Key";

        private final String header;

        /** Reads {@value #DEFAULT_HEADER}. */
        public ApiKey() {
            this(DEFAULT_HEADER);
        }

        /**
         * Reads {@code header}.
         *
         * @param header the name of the request header holding the key
         */
        public ApiKey(String header) {
            if (header == null || header.isBlank()) {
                throw new IllegalArgumentException("throttle.key.header must name a header");
            }
            this.header = header;
        }

        /** @return the name of the request header this resolver reads */
        public String header() {
            return header;
        }

        @Override
        public Optional<String> identify(Caller caller) {
            return caller.header(header);
        }
    }

    /** Everyone together: one quota for all callers. */
    final class Everyone implements ThrottleKey {
        @Override
        public Optional<String> identify(Caller caller) {
            return Optional.of("*");
        }
    }
}
