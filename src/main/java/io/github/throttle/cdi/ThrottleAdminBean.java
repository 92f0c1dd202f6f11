package io.github.throttle.cdi;

import io.github.throttle.ThrottleAdmin;
import io.github.throttle.limiter.Limiter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Map;

/** The {@link ThrottleAdmin} bean: changes applied by the application's limiter. */
@ApplicationScoped
public class ThrottleAdminBean implements ThrottleAdmin {

    @Inject
    Limiter limiter;

    @Override
    public void assign(String identity, String plan, Duration duration) {
        limiter.assign(identity, plan, duration);
    }

    @Override
    public void unassign(String identity) {
        limiter.unassign(identity);
    }

    @Override
    public Map<String, Assignment> assignments() {
        return limiter.assignments();
    }
}
