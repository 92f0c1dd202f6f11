package io.github.throttle.cdi;

import io.github.throttle.ThrottleAdmin;
import io.github.throttle.limiter.Limiter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
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

    @Override
    public List<BucketLimits> buckets() {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public void override(String bucket, String plan, List<io.github.throttle.Throttler.Rate> limits) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public void clearOverride(String bucket, String plan) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public List<Usage> usage(String bucket, String plan, String identity) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public void reset(String bucket, String identity) {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public List<Denied> topDenied(String bucket, int n) {
        throw new UnsupportedOperationException("not yet");
    }
}
