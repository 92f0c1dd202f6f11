package it.throttle.app;

import io.github.throttle.Caller;
import io.github.throttle.ThrottleKey;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Locale;
import java.util.Optional;

/** A resolver written by the application, as a CDI bean: tenants are case-insensitive. */
@ApplicationScoped
public class TenantKey implements ThrottleKey {

    @Override
    public Optional<String> identify(Caller caller) {
        return caller.header("X-Tenant").map(t -> t.trim().toLowerCase(Locale.ROOT));
    }
}
