package io.github.throttle.cdi;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.security.Principal;
import java.util.Optional;

/** The current principal, from the container's built-in {@link Principal} bean when there is one. */
@ApplicationScoped
public class PrincipalLookup {

    @Inject
    Instance<Principal> principal;

    private volatile Boolean resolvable;

    Optional<Principal> current() {
        Boolean r = resolvable;
        if (r == null) {
            // whether the container offers a Principal bean does not change at run time
            r = principal.isResolvable();
            resolvable = r;
        }
        try {
            if (r) {
                Principal p = principal.get();
                if (p != null && p.getName() != null && !p.getName().isEmpty() && !"ANONYMOUS".equals(p.getName())
                        && !"anonymous".equals(p.getName())) {
                    return Optional.of(p);
                }
            }
        } catch (RuntimeException e) {
            // no security context active for this call
        }
        return Optional.empty();
    }
}
