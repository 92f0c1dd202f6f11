package io.github.throttle.cdi;

import io.github.throttle.ThrottleAdmin;
import io.github.throttle.Throttler;
import io.github.throttle.fleet.Administration;
import io.github.throttle.fleet.SharedFleet;
import io.github.throttle.limiter.Limiter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The {@link ThrottleAdmin} bean: changes applied by the application's limiter. */
@ApplicationScoped
public class ThrottleAdminBean implements ThrottleAdmin {

    /** Who the log names for changes made by the application's own code, with no caller. */
    private static final String APPLICATION = "application";

    @Inject
    Limiter limiter;

    @Inject
    PrincipalLookup principals;

    private Administration admin() {
        return limiter.fleet(SharedFleet.class).admin();
    }

    /** Who makes a change: the caller's principal (the admin API's operator), else the application. */
    private String who() {
        return principals.current().map(java.security.Principal::getName).filter(name -> !name.isBlank()).orElse(APPLICATION);
    }

    @Override
    public void assign(String identity, String plan, Duration duration) {
        admin().assign(identity, plan, duration, who());
    }

    @Override
    public void unassign(String identity) {
        admin().unassign(identity, who());
    }

    @Override
    public Map<String, Assignment> assignments() {
        return admin().assignments();
    }

    @Override
    public List<BucketLimits> buckets() {
        return admin().buckets();
    }

    @Override
    public void override(String bucket, String plan, List<Throttler.Rate> limits) {
        admin().override(bucket, plan, limits, who());
    }

    @Override
    public void clearOverride(String bucket, String plan) {
        admin().clearOverride(bucket, plan, who());
    }

    @Override
    public List<Usage> usage(String bucket, String plan, String identity) {
        return admin().usage(bucket, plan, identity);
    }

    @Override
    public void reset(String bucket, String identity) {
        admin().resetEverywhere(bucket, identity, who());
    }

    @Override
    public void resetAll() {
        admin().resetAll(who());
    }

    @Override
    public List<Denied> topDenied(String bucket, int n) {
        return admin().topDenied(bucket, n);
    }
}
